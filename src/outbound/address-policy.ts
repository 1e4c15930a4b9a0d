import net from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Which IP addresses the outbound client may connect to.
 *
 * The policy is an allow-list: an address is allowed only when it is ordinary public unicast
 * (IPv4 outside every special-purpose range, IPv6 inside global unicast 2000::/3 and outside its
 * special-purpose ranges). Anything unrecognised is refused, so a new special range fails closed.
 * Loopback is the one opt-in exception, and it never widens to private, link-local or metadata
 * addresses.
 */
export interface AddressPolicy {
  allowLoopback: boolean;
}

/** Why an address is refused, or `null` when the client may connect to it. */
export function addressRefusal(address: string, policy: AddressPolicy): string | null {
  // net.isIP accepts only canonical literals (no "0x7f.1", "127.1" or "010.0.0.1"), which is what
  // the socket will be given; ipaddr.js would read such forms differently from the kernel.
  if (net.isIP(address) === 0) return 'not an IP address';
  const parsed = ipaddr.parse(address);
  return parsed.kind() === 'ipv4'
    ? ipv4Refusal(parsed as ipaddr.IPv4, policy.allowLoopback)
    : ipv6Refusal(parsed as ipaddr.IPv6, policy.allowLoopback);
}

export function isAllowedAddress(address: string, policy: AddressPolicy): boolean {
  return addressRefusal(address, policy) === null;
}

const IPV4_RANGE_NAMES: Record<string, string> = {
  unspecified: 'unspecified (0.0.0.0/8)',
  broadcast: 'broadcast',
  multicast: 'multicast',
  linkLocal: 'link-local (169.254.0.0/16, includes the cloud metadata address)',
  loopback: 'loopback',
  carrierGradeNat: 'carrier-grade NAT (100.64.0.0/10)',
  private: 'private (RFC 1918)',
  reserved: 'reserved, documentation or benchmarking range',
  as112: 'AS112 anycast',
  amt: 'AMT anycast',
};

function ipv4Refusal(address: ipaddr.IPv4, allowLoopback: boolean): string | null {
  const range = address.range();
  if (range === 'unicast') return null;
  if (range === 'loopback' && allowLoopback) return null;
  return IPV4_RANGE_NAMES[range] ?? `special-purpose range (${range})`;
}

const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3') as [ipaddr.IPv6, number];

function ipv6Refusal(address: ipaddr.IPv6, allowLoopback: boolean): string | null {
  const range = address.range();
  switch (range) {
    case 'loopback':
      return allowLoopback ? null : 'loopback';
    case 'ipv4Mapped': {
      // ::ffff:a.b.c.d reaches a.b.c.d on a dual-stack socket: judge the IPv4 address.
      const refusal = ipv4Refusal(address.toIPv4Address(), allowLoopback);
      return refusal && `IPv4-mapped ${refusal}`;
    }
    case 'rfc6052': {
      // NAT64 (64:ff9b::/96) is translated to the embedded IPv4 address by a gateway. The local-use
      // prefix 64:ff9b:1::/48 is site-specific and refused. Loopback is never allowed through a
      // gateway: "loopback" would be the gateway's own.
      if (!address.match(ipaddr.parseCIDR('64:ff9b::/96') as [ipaddr.IPv6, number])) return 'local-use NAT64 prefix';
      const [a, b] = [address.parts[6], address.parts[7]];
      const embedded = new ipaddr.IPv4([a >> 8, a & 0xff, b >> 8, b & 0xff]);
      const refusal = ipv4Refusal(embedded, false);
      return refusal && `NAT64 of ${refusal}`;
    }
    case 'unicast':
      return address.match(GLOBAL_UNICAST) ? null : 'outside IPv6 global unicast (2000::/3)';
    case 'linkLocal':
      return 'link-local (fe80::/10)';
    case 'uniqueLocal':
      return 'unique-local (fc00::/7)';
    case 'unspecified':
      return 'unspecified (::)';
    case 'multicast':
      return 'multicast';
    default:
      // 6to4 and Teredo tunnel to addresses the policy cannot see; documentation, benchmarking,
      // discard, ORCHID and the rest are not real destinations.
      return `special-purpose range (${range})`;
  }
}
