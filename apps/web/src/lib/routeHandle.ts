/** `handle` of a route: the page title (document title "<title> · Vigil") and its breadcrumb. */
export interface RouteHandle {
  title: string;
  crumb: string;
}

export const isRouteHandle = (value: unknown): value is RouteHandle =>
  !!value && typeof value === 'object' && typeof (value as RouteHandle).title === 'string';
