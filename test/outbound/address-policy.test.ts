import { describe, it, expect } from 'vitest';
import { addressRefusal, isAllowedAddress } from '../../src/outbound/address-policy';

// Pure classification: nothing here opens a connection.

describe('address policy', () => {
  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '151.101.1.69',
    '2606:4700:4700::1111',
    '2a00:1450:4001:80b::200e',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
  ])('allows the public address %s', (address) => {
    expect(addressRefusal(address, { allowLoopback: false })).toBeNull();
  });

  it.each(['127.0.0.1', '127.255.255.254', '::1', '::ffff:127.0.0.1'])(
    'allows loopback %s only when loopback is allowed',
    (address) => {
      expect(isAllowedAddress(address, { allowLoopback: true })).toBe(true);
      expect(addressRefusal(address, { allowLoopback: false })).toMatch(/loopback/);
    },
  );

  it.each([
    ['10.0.0.1', /private/],
    ['172.16.0.1', /private/],
    ['172.31.255.255', /private/],
    ['192.168.0.1', /private/],
    ['169.254.169.254', /link-local.*metadata/],
    ['100.64.0.1', /carrier-grade NAT/],
    ['100.127.255.255', /carrier-grade NAT/],
    ['0.0.0.0', /unspecified/],
    ['0.1.2.3', /unspecified/],
    ['255.255.255.255', /broadcast/],
    ['224.0.0.1', /multicast/],
    ['239.255.255.250', /multicast/],
    ['198.18.0.1', /benchmarking/],
    ['198.19.255.255', /benchmarking/],
    ['192.0.0.170', /reserved/],
    ['203.0.113.5', /documentation/],
    ['240.0.0.1', /reserved/],
    ['fe80::1', /link-local/],
    ['fe80::1%eth0', /link-local/],
    ['febf::1', /link-local/],
    ['fc00::1', /unique-local/],
    ['fdff:ffff::1', /unique-local/],
    ['::', /unspecified/],
    ['ff02::1', /multicast/],
    ['::ffff:10.0.0.1', /IPv4-mapped private/],
    ['::ffff:169.254.169.254', /IPv4-mapped link-local/],
    ['64:ff9b::a00:1', /NAT64 of private/],
    ['64:ff9b::7f00:1', /NAT64 of loopback/],
    ['64:ff9b:1::a00:1', /NAT64/],
    ['2002:a00:1::1', /6to4/],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', /teredo/],
    ['2001:db8::1', /special-purpose/],
    ['::7f00:1', /global unicast/],
    ['100::1', /special-purpose/],
    ['fec0::1', /special-purpose/],
  ])('refuses %s even when loopback is allowed', (address, reason) => {
    expect(addressRefusal(address, { allowLoopback: true })).toMatch(reason);
  });

  it.each(['localhost', '127.1', '0x7f.0.0.1', '010.0.0.1', '2130706433', '', '[::1]'])(
    'refuses %j, which is not a canonical IP address',
    (address) => {
      expect(addressRefusal(address, { allowLoopback: true })).toBe('not an IP address');
    },
  );
});
