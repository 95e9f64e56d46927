import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** IPv6 global unicast (2000::/3): everything outside it is unallocated, reserved or local. */
const IPV6_GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR('2000::/3');

/** Strips the brackets a URL puts around an IPv6 literal (`[::1]` → `::1`). */
export function unbracketHost(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/** Whether `host` (a URL hostname, brackets allowed) is an IP literal rather than a DNS name. */
export function isIpLiteral(host: string): boolean {
  return isIP(unbracketHost(host)) !== 0;
}

/**
 * The `ipaddr.js` range of an address, after unmapping IPv4-mapped IPv6 (`::ffff:127.0.0.1` is
 * classified as `127.0.0.1`), or `undefined` when `ip` is not a strict IP literal.
 */
export function classifyAddress(ip: string): string | undefined {
  const literal = unbracketHost(ip);
  // net.isIP is strict; ipaddr.parse alone would also accept shorthand forms such as `127.1`.
  if (isIP(literal) === 0) return undefined;
  let address = ipaddr.parse(literal);
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()) {
    address = (address as ipaddr.IPv6).toIPv4Address();
  }
  const range = address.range();
  if (range === 'unicast' && address.kind() === 'ipv6' && !address.match(IPV6_GLOBAL_UNICAST))
    return 'notGlobalUnicast';
  return range;
}

/**
 * Whether `ip` is a public unicast address an outbound request may reach. Loopback, private,
 * link-local, unique-local, multicast, reserved, unspecified, carrier-grade NAT, NAT64, 6to4,
 * Teredo and IPv4-mapped forms of any of those are not; neither is anything that is not an IP.
 */
export function isPublicAddress(ip: string): boolean {
  return classifyAddress(ip) === 'unicast';
}

/** Whether `ip` is a loopback address (`127.0.0.0/8`, `::1`, or an IPv4-mapped loopback). */
export function isLoopbackAddress(ip: string): boolean {
  return classifyAddress(ip) === 'loopback';
}

/**
 * The source a per-address throttle counts: an IPv4 address (IPv4-mapped forms unmapped), or the /64 network of
 * an IPv6 address (one subscriber commonly holds a whole /64, so counting single addresses would not bound it).
 * Anything that is not an IP literal counts as one `unknown` source.
 */
export function throttleSourceOf(ip: string | undefined): string {
  const literal = unbracketHost(ip ?? '');
  if (isIP(literal) === 0) return 'unknown';
  const address = ipaddr.parse(literal);
  if (address.kind() === 'ipv4') return address.toString();
  const ipv6 = address as ipaddr.IPv6;
  if (ipv6.isIPv4MappedAddress()) return ipv6.toIPv4Address().toString();
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${ipv6.toString()}/64`).toString()}/64`;
}
