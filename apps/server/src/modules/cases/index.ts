/** What other modules may use of cases: the visible portal check, reading a case, opening a case. */
export { caseCreationAnswer, getCase, visiblePortal } from './cases.service.ts';
export { findCase } from './cases.repository.ts';
export { openCase, type CaseOpening, type CaseOpeningResult } from './case-opening.repository.ts';
