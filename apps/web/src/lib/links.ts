/** Links to the case and portal pages, with the navigation state those pages read; used by every list that opens them. */

/** Navigation state of a case link (docs/web-pages.md "Pages": customerName and customerId). */
export interface CaseLinkState {
  customerName: string;
  customerId: number;
}
export const caseLink = (c: { id: number; customerName: string; customerId: number }) => ({
  to: `/dashboards/cases/${c.id}`,
  state: { customerName: c.customerName, customerId: c.customerId } satisfies CaseLinkState,
});
export const portalLink = (p: { customerId: number; customerName: string }) => ({
  to: `/dashboards/portals/${p.customerId}`,
  state: { customerName: p.customerName },
});
