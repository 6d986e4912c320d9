import dns from 'node:dns/promises';
import net from 'node:net';

/** Whether webhook targets may be plain http and private, loopback or link-local addresses (APAS_WEBHOOK_ALLOW_INSECURE). */
export interface WebhookNetworkPolicy { allowInsecure: boolean }

/**
 * Thrown when a target host is, or resolves to, an address webhooks may not reach. The message names the host as
 * given, never what a name resolved to: an error must not tell an admin the addresses of internal hosts.
 */
export class ForbiddenAddressError extends Error {}

// Addresses of the service's own machine and networks, and ones that are no real destination: a webhook aimed
// there would let an admin make the service probe its own network (server-side request forgery).
const BLOCKED = new net.BlockList();
for (const [prefix, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24],
  ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) BLOCKED.addSubnet(prefix, bits, 'ipv4');
for (const [prefix, bits] of [
  ['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8], ['64:ff9b::', 96], ['64:ff9b:1::', 48],
  ['2001:db8::', 32], ['100::', 64], ['2002::', 16],
] as const) BLOCKED.addSubnet(prefix, bits, 'ipv6');

/** The IPv4 address inside an IPv4-mapped or -compatible IPv6 address (::ffff:a.b.c.d, ::ffff:7f00:1), if it is one. */
function embeddedIpv4(address: string): string | null {
  const m = /^(?:0{0,4}:){0,5}(?::|ffff:)((?:\d{1,3}\.){3}\d{1,3})$/i.exec(address) ?? /^::ffff:((?:\d{1,3}\.){3}\d{1,3})$/i.exec(address);
  if (m) return m[1] as string;
  const hex = /^(?:0{0,4}:){0,5}(?::|ffff:)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex) return null;
  const hi = Number.parseInt(hex[1] as string, 16);
  const lo = Number.parseInt(hex[2] as string, 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** True when `address` (an IP address) is loopback, private, link-local, unspecified, CGNAT or otherwise not public. */
export function isForbiddenAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = net.isIP(bare);
  if (family === 0) return true;
  if (family === 4) return BLOCKED.check(bare, 'ipv4');
  const v4 = embeddedIpv4(bare);
  if (v4 !== null) return BLOCKED.check(v4, 'ipv4');
  return BLOCKED.check(bare, 'ipv6');
}

/** One checked address of a host: what a connection is made to. */
export interface CheckedAddress { address: string; family: 4 | 6 }

/** Resolves a host name to all its addresses; a seam so tests can play a DNS server that changes its answers. */
export type HostResolver = (host: string) => Promise<{ address: string; family: number }[]>;

/** The system resolver (what Node's connections use). */
export const systemResolver: HostResolver = (host) => dns.lookup(host, { all: true, verbatim: true });

/**
 * Resolves `host` and returns an address a webhook may connect to. Every address the name has must be allowed (a
 * name with one private address among public ones is refused), so the answer does not depend on which is tried.
 */
export async function resolveAllowed(host: string, resolver: HostResolver = systemResolver): Promise<CheckedAddress> {
  const bare = host.replace(/^\[|\]$/g, '');
  if (net.isIP(bare) !== 0) {
    if (isForbiddenAddress(bare)) throw new ForbiddenAddressError(`${bare} is a private, loopback, link-local or reserved address`);
    return { address: bare, family: net.isIP(bare) as 4 | 6 };
  }
  let found: { address: string; family: number }[];
  try {
    found = await resolver(bare);
  } catch {
    throw new ForbiddenAddressError(`the host name ${bare} could not be resolved`);
  }
  const bad = found.find((a) => isForbiddenAddress(a.address));
  if (bad) throw new ForbiddenAddressError(`${bare} resolves to a private, loopback, link-local or reserved address`);
  const first = found[0];
  if (!first) throw new ForbiddenAddressError(`the host name ${bare} has no address`);
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}
