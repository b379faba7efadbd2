import { useNavigate } from 'react-router';
import { caseLink } from '../../lib/links.ts';
import { notify } from '../../lib/notify.ts';

/** A case creation answer: `{data: {error: true, msg}}` is an error toast, else the case. */
export function caseFromCreation(body: { data: { error: true; msg: string } | { id: number; customerId: number; customerName: string } }) {
  if ('error' in body.data) {
    notify.error(body.data.msg);
    return undefined;
  }
  notify.success('Case created.');
  return body.data;
}

/**
 * After a case creation call (from a portal, an alert or the Add Case dialog): toasts
 * the outcome and, when a case was opened, goes to it. Returns whether one was.
 */
export function useGoToCreatedCase() {
  const navigate = useNavigate();
  return (result: { data?: Parameters<typeof caseFromCreation>[0] }): boolean => {
    const created = result.data ? caseFromCreation(result.data) : undefined;
    if (!created) return false;
    const link = caseLink(created);
    void navigate(link.to, { state: link.state });
    return true;
  };
}
