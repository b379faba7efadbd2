/** The error page's heading (docs/web.md "Routes"), kept apart so the lazy error route can use it without the page. */
export const OOPS = 'Oops! Sorry, an unexpected error has occurred.';
