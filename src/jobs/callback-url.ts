/**
 * Where results may be sent. A callback URL is http(s), carries no fragment, and must not point
 * into the service's own network: loopback, private, link-local, CGNAT, multicast and reserved
 * addresses are refused — as literals, and as what a DNS name resolves to (all its addresses),
 * both at submit (422) and again at each delivery (the connection's own lookup), so a name that
 * re-resolves to an inside address later is refused then too. HLA_SERVICE_ALLOW_PRIVATE_CALLBACKS
 * lifts the address rule (tests, closed networks); the scheme rule stays.
 */
import { lookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { validationError } from '../errors.ts';

export const MAX_CALLBACK_URL_LENGTH = 2048;

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
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(net, bits, 'ipv6');
}

/**
 * True for an address a callback must not reach. IPv4-mapped IPv6 (`::ffff:a.b.c.d`) is judged by
 * its IPv4 part (BlockList itself applies IPv4 rules to mapped addresses, never the reverse).
 */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family !== 6) return true;
  const dotted = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (dotted !== null) return blocked.check(dotted[1], 'ipv4');
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address); // how URL writes them
  if (hex !== null) {
    const high = parseInt(hex[1], 16);
    const low = parseInt(hex[2], 16);
    return blocked.check(`${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`, 'ipv4');
  }
  return blocked.check(address, 'ipv6');
}

/** Parses and checks a callback URL's shape. Throws 422 naming `callback_url`, never its value. */
export function parseCallbackUrl(raw: unknown): URL {
  if (typeof raw !== 'string' || raw.trim() === '') {
    throw validationError('callback_url: required; the URL that receives the result (http or https)');
  }
  if (raw.length > MAX_CALLBACK_URL_LENGTH) {
    throw validationError(`callback_url: longer than ${MAX_CALLBACK_URL_LENGTH} characters`);
  }
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw validationError('callback_url: not an absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw validationError('callback_url: only http and https URLs are accepted');
  }
  if (url.hash !== '') throw validationError('callback_url: a fragment (#…) is not accepted');
  return url;
}

type Resolve = (hostname: string) => Promise<readonly LookupAddress[]>;

const systemResolve: Resolve = (hostname) => lookup(hostname, { all: true, verbatim: true });

/** The host part without IPv6 brackets. */
function hostOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/**
 * Full check at submit: shape, then every address the host resolves to. A name that does not
 * resolve is refused too (the delivery could not reach it).
 */
export async function checkCallbackUrl(raw: unknown, allowPrivate: boolean, resolve: Resolve = systemResolve): Promise<URL> {
  const url = parseCallbackUrl(raw);
  if (allowPrivate) return url;
  const host = hostOf(url);
  if (isIP(host) !== 0) {
    if (isPrivateAddress(host)) throw refused();
    return url;
  }
  let addresses: readonly LookupAddress[];
  try {
    addresses = await resolve(host);
  } catch {
    throw validationError('callback_url: the host name does not resolve');
  }
  if (addresses.length === 0) throw validationError('callback_url: the host name does not resolve');
  if (addresses.some((entry) => isPrivateAddress(entry.address))) throw refused();
  return url;
}

function refused() {
  return validationError(
    'callback_url: private, loopback and link-local addresses are refused (set HLA_SERVICE_ALLOW_PRIVATE_CALLBACKS=true for a closed network)',
  );
}
