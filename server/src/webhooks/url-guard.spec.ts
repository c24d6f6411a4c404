import { describe, expect, it } from '@jest/globals';
import { addressAllowed, checkUrlShape, UrlNotAllowedError } from './url-guard.js';

/** Every IPv6 spelling that carries an IPv4 address, for the IPv4 address it carries. */
function carriers(a: number, b: number, c: number, d: number): string[] {
  const hex = (x: number, y: number) => ((x << 8) | y).toString(16);
  const [high, low] = [hex(a, b), hex(c, d)];
  const inverted = (x: number, y: number) => (~((x << 8) | y) & 0xffff).toString(16);
  return [
    `::ffff:${a}.${b}.${c}.${d}`, // IPv4-mapped
    `::ffff:${high}:${low}`,
    `::ffff:0:${a}.${b}.${c}.${d}`, // IPv4-translated (RFC 6145)
    `::${a}.${b}.${c}.${d}`, // IPv4-compatible
    `::${high}:${low}`,
    `0:0:0:0:0:0:${high}:${low}`,
    `64:ff9b::${a}.${b}.${c}.${d}`, // NAT64 (RFC 6052)
    `64:ff9b::${high}:${low}`,
    `2002:${high}:${low}::1`, // 6to4
    `2002:${high}:${low}:1:2:3:4:5`,
    `2001:0:${high}:${low}::${inverted(a, b)}:${inverted(c, d)}`, // Teredo, this address as the server
    `2001:0:808:808::${inverted(a, b)}:${inverted(c, d)}`, // Teredo, this address as the client (server 8.8.8.8)
  ];
}

describe('the SSRF guard: IPv6 addresses that carry an IPv4 address', () => {
  const internal: Array<[string, number[]]> = [
    ['loopback', [127, 0, 0, 1]],
    ['link-local (cloud metadata)', [169, 254, 169, 254]],
    ['private', [10, 0, 0, 7]],
    ['private', [192, 168, 1, 1]],
    ['carrier-grade NAT', [100, 64, 0, 1]],
    ['unspecified', [0, 0, 0, 0]],
  ];

  it.each(internal)('judges every spelling of a %s IPv4 address as that address, in production', (_, [a, b, c, d]) => {
    for (const address of carriers(a, b, c, d)) expect([address, addressAllowed(address, 'production')]).toEqual([address, false]);
  });

  it('takes every spelling of a public IPv4 address, as it takes the address', () => {
    for (const address of carriers(93, 184, 215, 14)) expect([address, addressAllowed(address, 'production')]).toEqual([address, true]);
  });

  it('takes a carried loopback address in development only, as it takes 127.0.0.1', () => {
    for (const address of carriers(127, 0, 0, 1)) expect([address, addressAllowed(address, 'development')]).toEqual([address, true]);
    for (const address of carriers(169, 254, 169, 254)) expect([address, addressAllowed(address, 'development')]).toEqual([address, false]);
  });

  it('refuses the NAT64 local-use prefix, whose IPv4 position depends on the network', () => {
    expect(addressAllowed('64:ff9b:1::7f00:1', 'production')).toBe(false);
    expect(addressAllowed('64:ff9b:1::5db8:d70e', 'production')).toBe(false);
  });

  it('still judges plain IPv6 addresses by their own range', () => {
    expect(addressAllowed('::', 'development')).toBe(false);
    expect(addressAllowed('::1', 'production')).toBe(false);
    expect(addressAllowed('::1', 'development')).toBe(true);
    expect(addressAllowed('2a00:1450:4002:402::200e', 'production')).toBe(true);
    expect(addressAllowed('fe80::1', 'development')).toBe(false);
  });

  it('refuses the URLs of the red-team report, naming the IPv4 address they carry', () => {
    expect(() => checkUrlShape('https://[::127.0.0.1]/', 'production')).toThrow(
      new UrlNotAllowedError('url must reach a public address; ::7f00:1 carries the IPv4 address 127.0.0.1, a loopback address.'),
    );
    expect(() => checkUrlShape('https://[::a9fe:a9fe]/', 'production')).toThrow(
      new UrlNotAllowedError('url must reach a public address; ::a9fe:a9fe carries the IPv4 address 169.254.169.254, a linkLocal address.'),
    );
    expect(() => checkUrlShape('http://[2002:a9fe:a9fe::]/', 'development')).toThrow(/carries the IPv4 address 169\.254\.169\.254, a linkLocal address/);
    expect(checkUrlShape('http://[::127.0.0.1]:4000/hooks', 'development').toString()).toBe('http://[::7f00:1]:4000/hooks');
  });
});
