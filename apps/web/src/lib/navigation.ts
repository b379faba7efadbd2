/** Lets code outside React (session expiry) navigate through the data router. */
let navigator: (to: string) => void = (to) => window.location.assign(to);

export function setNavigator(fn: (to: string) => void): void {
  navigator = fn;
}

export function navigateTo(to: string): void {
  navigator(to);
}
