/**
 * The public surface of features/cases: what other features may import from it.
 * Cases: list, detail, comments, creation. Other features show a portal's cases, open a case, and count cases by status.
 * Anything not exported here is internal to the feature.
 */
export { useCaseStatusCountsQuery, useCasesQuery, useCreateCaseMutation, useQuarterCompletedQuery } from './api.ts';
export { useGoToCreatedCase } from './caseCreation.ts';
export { AccessCommandButton } from './components/AccessCommandButton.tsx';
export { CasesTable } from './components/CasesTable.tsx';
