import { describe, expect, it } from 'vitest';
import { classifyAddress, isLoopbackAddress, isPublicAddress, throttleSourceOf } from './address-classification.js';

describe('isPublicAddress', () => {
  it.each(['93.184.215.14', '8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e'])(
    'accepts the public unicast address %s (positive control)',
    (ip) => {
      expect(isPublicAddress(ip)).toBe(true);
    },
  );

  it.each([
    ['loopback', '127.0.0.1'],
    ['loopback (other /8 address)', '127.53.1.9'],
    ['unspecified', '0.0.0.0'],
    ['this network', '0.1.2.3'],
    ['private 10/8', '10.0.0.5'],
    ['private 172.16/12', '172.31.255.1'],
    ['private 192.168/16', '192.168.1.1'],
    ['link-local (cloud metadata)', '169.254.169.254'],
    ['carrier-grade NAT', '100.64.0.1'],
    ['multicast', '224.0.0.251'],
    ['broadcast', '255.255.255.255'],
    ['reserved 240/4', '240.0.0.1'],
    ['documentation', '192.0.2.10'],
    ['benchmarking', '198.18.0.1'],
    ['IETF protocol assignments', '192.0.0.8'],
  ])('refuses IPv4 %s (%s)', (_kind, ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });

  it.each([
    ['loopback', '::1'],
    ['unspecified', '::'],
    ['unique-local', 'fd00::1'],
    ['link-local', 'fe80::1'],
    ['link-local with zone', 'fe80::1%eth0'],
    ['multicast', 'ff02::1'],
    ['IPv4-mapped loopback', '::ffff:127.0.0.1'],
    ['IPv4-mapped private (hex form)', '::ffff:a00:5'],
    ['IPv4-mapped metadata', '::ffff:169.254.169.254'],
    ['IPv4-compatible (deprecated)', '::127.0.0.1'],
    ['NAT64 well-known prefix', '64:ff9b::a00:5'],
    ['NAT64 local-use prefix', '64:ff9b:1::a00:5'],
    ['6to4', '2002:7f00:1::1'],
    ['Teredo', '2001:0:4136:e378:8000:63bf:3fff:fdd2'],
    ['documentation', '2001:db8::1'],
    ['deprecated site-local', 'fec0::1'],
    ['outside 2000::/3', '4000::1'],
  ])('refuses IPv6 %s (%s)', (_kind, ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });

  it('accepts an IPv4-mapped public address, since it is the public address (positive control)', () => {
    expect(isPublicAddress('::ffff:8.8.8.8')).toBe(true);
  });

  it.each(['localhost', '127.1', '0x7f.0.0.1', '2130706433', '', 'not an ip', '[::1]x'])(
    'refuses %j, which is not a strict IP literal',
    (value) => {
      expect(isPublicAddress(value)).toBe(false);
      expect(classifyAddress(value)).toBeUndefined();
    },
  );

  it('accepts a bracketed URL-style IPv6 literal', () => {
    expect(isPublicAddress('[2606:4700:4700::1111]')).toBe(true);
    expect(isPublicAddress('[::1]')).toBe(false);
  });
});

describe('isLoopbackAddress', () => {
  it('recognizes IPv4, IPv6 and IPv4-mapped loopback', () => {
    expect(isLoopbackAddress('127.0.0.1')).toBe(true);
    expect(isLoopbackAddress('::1')).toBe(true);
    expect(isLoopbackAddress('::ffff:127.0.0.1')).toBe(true);
  });

  it('does not treat private or public addresses as loopback', () => {
    expect(isLoopbackAddress('10.0.0.1')).toBe(false);
    expect(isLoopbackAddress('8.8.8.8')).toBe(false);
  });
});

describe('throttleSourceOf', () => {
  it('keeps an IPv4 address, unmapping its IPv6 form', () => {
    expect(throttleSourceOf('203.0.113.9')).toBe('203.0.113.9');
    expect(throttleSourceOf('::ffff:203.0.113.9')).toBe('203.0.113.9');
  });

  it('counts an IPv6 address as its /64 network, whatever its spelling', () => {
    expect(throttleSourceOf('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(throttleSourceOf('2001:0db8:0001:0002::1')).toBe('2001:db8:1:2::/64');
    expect(throttleSourceOf('[2001:db8:1:3::1]')).toBe('2001:db8:1:3::/64');
  });

  it('counts anything that is not an address as one unknown source', () => {
    expect(throttleSourceOf(undefined)).toBe('unknown');
    expect(throttleSourceOf('localhost')).toBe('unknown');
    expect(throttleSourceOf('127.1')).toBe('unknown');
  });
});
