import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { NOTIFY_MSG } from '@vigil/contracts';

/**
 * Outbound safety (docs/notifications.md "Outbound targets"): channels reach http/https URLs on
 * public addresses only. Loopback, private, link-local, unspecified, shared (CGNAT), multicast and
 * reserved ranges are refused at creation and again at send time on the address the connection is
 * made to (the lookup of every request goes through `safeLookup`), unless
 * NOTIFY_ALLOW_PRIVATE_TARGETS=1.
 */
const blocked = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
  ['64:ff9b::', 96],
] as const)
  blocked.addSubnet(net, bits, 'ipv6');

/** Whether an IP address is loopback, private, link-local or otherwise not a public destination. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped?.[1]) return blocked.check(mapped[1], 'ipv4');
    return blocked.check(address, 'ipv6');
  }
  return true;
}

export class TargetRefused extends Error {}

const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');

function lookupAll(host: string, timeoutMs: number): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(NOTIFY_MSG.unresolvableTarget)), timeoutMs);
    dnsLookup(host, { all: true, verbatim: true }, (err, addresses) => {
      clearTimeout(timer);
      if (err) reject(new Error(NOTIFY_MSG.unresolvableTarget));
      else resolve(addresses);
    });
  });
}

/**
 * At creation or edit: the URL's host, resolved, must be public. A host that does not resolve now
 * is accepted (it is checked again at every send); one resolving to any private address is refused.
 */
export async function checkTargetUrl(text: string, allowPrivate: boolean): Promise<void> {
  const url = new URL(text);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TargetRefused(NOTIFY_MSG.urlFormat);
  if (allowPrivate) return;
  const host = hostOf(url);
  if (isIP(host)) {
    if (isPrivateAddress(host)) throw new TargetRefused(NOTIFY_MSG.privateTarget);
    return;
  }
  if (host === 'localhost' || host.endsWith('.localhost')) throw new TargetRefused(NOTIFY_MSG.privateTarget);
  let addresses: LookupAddress[];
  try {
    addresses = await lookupAll(host, 3_000);
  } catch {
    return;
  }
  if (addresses.some((a) => isPrivateAddress(a.address))) throw new TargetRefused(NOTIFY_MSG.privateTarget);
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http(s).request: resolves the host and refuses the connection when the address it
 * would connect to is private (unless allowed), so a name that changes its answer after creation
 * (DNS rebinding) still cannot reach the inside.
 */
export function safeLookup(allowPrivate: boolean) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback): void => {
    dnsLookup(hostname, { all: true, verbatim: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const refused = !allowPrivate && addresses.some((a) => isPrivateAddress(a.address));
      if (refused) return callback(Object.assign(new Error(NOTIFY_MSG.privateTarget), { code: 'EPRIVATETARGET' }), []);
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      if (!first) return callback(Object.assign(new Error(NOTIFY_MSG.unresolvableTarget), { code: 'ENOTFOUND' }), []);
      callback(null, first.address, first.family);
    });
  };
}

/** At send time, for a URL whose host is an IP literal (no lookup happens for those). */
export function refuseLiteralPrivate(text: string, allowPrivate: boolean): void {
  if (allowPrivate) return;
  const host = hostOf(new URL(text));
  if (isIP(host) && isPrivateAddress(host)) throw new TargetRefused(NOTIFY_MSG.privateTarget);
}
