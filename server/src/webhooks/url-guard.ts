import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { Environment } from '../config/config.js';

/**
 * The SSRF guard of webhook URLs. An endpoint may only reach the public internet: every address its host resolves to
 * must be in ipaddr.js's `unicast` range, which leaves out loopback, private, link-local (cloud metadata services
 * answer at 169.254.169.254), carrier-grade NAT, unique-local, multicast and reserved addresses. An IPv6 address that
 * carries an IPv4 address (IPv4-mapped, IPv4-translated, IPv4-compatible, NAT64, 6to4, Teredo) is judged as the IPv4
 * address it carries, since a host or a gateway may route it there: `[::127.0.0.1]` is loopback, `[::a9fe:a9fe]` is
 * link-local. Production takes HTTPS only; development also takes `http://` and loopback, so a receiver on the
 * developer's machine works.
 *
 * The check runs when an endpoint is registered or changed, and when the sender opens a connection: its DNS lookup
 * goes through `guardedLookup`, which resolves once, checks, and hands the socket the address it checked, so a DNS
 * answer that changes between the check and the connection (rebinding) cannot reach an internal address.
 */
export class UrlNotAllowedError extends Error {}

/** A connection that may only reach public addresses was asked for a loopback one (development: see `Reach`). */
export class LoopbackAddressError extends UrlNotAllowedError {}

/**
 * Which of the addresses the environment allows a connection may reach: public ones, or (development only) loopback
 * ones. The sender keeps one pool of connections for each, so it knows which kind of receiver answered: a loopback
 * receiver's answers are not shown through the API (WEBHOOK_EXPOSE_LOOPBACK_RESPONSES).
 */
export type Reach = 'public' | 'loopback';

/** How an address is judged: its own range, or for an IPv6 address that carries IPv4 addresses, theirs. */
interface Judged {
  /** The addresses judged: the address itself, or the IPv4 addresses it carries. */
  addresses: Array<{ address: string; range: string }>;
  carried: boolean;
}

const v4 = (high: number, low: number): ipaddr.IPv4 => ipaddr.IPv4.parse(`${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`);

/**
 * The IPv4 addresses an IPv6 address carries, or null. The NAT64 local-use prefix 64:ff9b:1::/48 (RFC 8215) places
 * the IPv4 address where the operator's prefix length says, so it is not decoded: it stays an `rfc6052` address,
 * which is refused.
 */
function carriedIPv4(address: ipaddr.IPv6): ipaddr.IPv4[] | null {
  const p = address.parts;
  const zeros = (from: number, to: number) => p.slice(from, to).every((part) => part === 0);
  // ::ffff:a.b.c.d (mapped), ::ffff:0:a.b.c.d (translated, RFC 6145), ::a.b.c.d (compatible; :: and ::1 are not).
  if (zeros(0, 5) && p[5] === 0xffff) return [v4(p[6], p[7])];
  if (zeros(0, 4) && p[4] === 0xffff && p[5] === 0) return [v4(p[6], p[7])];
  if (zeros(0, 6) && (p[6] !== 0 || p[7] > 1)) return [v4(p[6], p[7])];
  // NAT64 well-known prefix 64:ff9b::/96 (RFC 6052).
  if (p[0] === 0x64 && p[1] === 0xff9b && zeros(2, 6)) return [v4(p[6], p[7])];
  // 6to4 2002:AABB:CCDD::/48 (RFC 3056).
  if (p[0] === 0x2002) return [v4(p[1], p[2])];
  // Teredo 2001:0:SERVER:…:~CLIENT (RFC 4380): the server, and the client's address stored inverted.
  if (p[0] === 0x2001 && p[1] === 0) return [v4(p[2], p[3]), v4(~p[6] & 0xffff, ~p[7] & 0xffff)];
  return null;
}

function judge(address: string): Judged {
  const parsed = ipaddr.parse(address);
  const carried = parsed.kind() === 'ipv6' ? carriedIPv4(parsed as ipaddr.IPv6) : null;
  if (carried) return { carried: true, addresses: carried.map((a) => ({ address: a.toString(), range: a.range() })) };
  return { carried: false, addresses: [{ address: parsed.toString(), range: parsed.range() }] };
}

const rangeAllowed = (range: string, environment: Environment): boolean => range === 'unicast' || (environment === 'development' && range === 'loopback');

export function addressAllowed(address: string, environment: Environment): boolean {
  if (!ipaddr.isValid(address)) return false;
  return judge(address).addresses.every((a) => rangeAllowed(a.range, environment));
}

/** Whether an address is loopback, or carries a loopback IPv4 address. */
export function isLoopback(address: string): boolean {
  return ipaddr.isValid(address) && judge(address).addresses.every((a) => a.range === 'loopback');
}

/** Parses a URL and checks what can be checked without DNS; returns it normalised. */
export function checkUrlShape(raw: string, environment: Environment): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UrlNotAllowedError('url must be an absolute URL, such as https://erp.example.it/webhooks/flusso');
  }
  const schemes = environment === 'production' ? ['https:'] : ['https:', 'http:'];
  if (!schemes.includes(url.protocol)) {
    throw new UrlNotAllowedError(environment === 'production' ? 'url must use https.' : 'url must use https or http.');
  }
  if (url.username || url.password) throw new UrlNotAllowedError('url must not carry a user name or password.');
  if (url.hash) throw new UrlNotAllowedError('url must not have a fragment (#…).');
  const host = hostOf(url);
  if (isIP(host) && !addressAllowed(host, environment)) throw new UrlNotAllowedError(notAllowed(host, environment));
  return url;
}

/** The URL's host without IPv6 brackets. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

function notAllowed(address: string, environment: Environment): string {
  const allowed = environment === 'development' ? 'public or loopback' : 'public';
  if (!ipaddr.isValid(address)) return `url must reach a ${allowed} address; ${address} is not an address.`;
  const judged = judge(address);
  const refused = judged.addresses.find((a) => !rangeAllowed(a.range, environment)) ?? judged.addresses[0];
  const what = refused.range === 'unicast' ? 'not allowed' : `a ${refused.range} address`;
  return judged.carried
    ? `url must reach a ${allowed} address; ${address} carries the IPv4 address ${refused.address}, ${what}.`
    : `url must reach a ${allowed} address; ${address} is ${what}.`;
}

function resolveAll(host: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => dnsLookup(host, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))));
}

/** Resolves the URL's host and checks every address it resolves to (registration and updates). */
export async function checkUrl(raw: string, environment: Environment): Promise<URL> {
  const url = checkUrlShape(raw, environment);
  const host = hostOf(url);
  if (isIP(host)) return url;
  let addresses: LookupAddress[];
  try {
    addresses = await resolveAll(host);
  } catch {
    throw new UrlNotAllowedError(`url's host ${host} does not resolve.`);
  }
  const refused = addresses.find((entry) => !addressAllowed(entry.address, environment));
  if (refused) throw new UrlNotAllowedError(notAllowed(refused.address, environment));
  return url;
}

/**
 * A `lookup` for sockets (net/tls `connect`): resolves once, refuses the connection unless every address is allowed
 * and of the `reach` asked for, and connects to the first checked one.
 */
export function guardedLookup(environment: Environment, reach: Reach): LookupFunction {
  return (hostname, options, callback) => {
    resolveAll(hostname).then(
      (addresses) => {
        const refused = addresses.find((entry) => !addressAllowed(entry.address, environment));
        if (refused || addresses.length === 0) {
          callback(new UrlNotAllowedError(refused ? notAllowed(refused.address, environment) : `${hostname} does not resolve`), '', 4);
          return;
        }
        const loopback = addresses.filter((entry) => isLoopback(entry.address)).length;
        if (reach === 'public' && loopback > 0) {
          callback(new LoopbackAddressError(`${hostname} resolves to a loopback address`), '', 4);
          return;
        }
        if (reach === 'loopback' && loopback < addresses.length) {
          callback(new UrlNotAllowedError(`${hostname} resolves to a loopback address and to others`), '', 4);
          return;
        }
        if ((options as { all?: boolean }).all) (callback as unknown as (error: null, all: LookupAddress[]) => void)(null, addresses);
        else callback(null, addresses[0].address, addresses[0].family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 4),
    );
  };
}
