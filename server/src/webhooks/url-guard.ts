import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { Environment } from '../config/config.js';

/**
 * The SSRF guard of webhook URLs. An endpoint may only reach the public internet: every address its host resolves to
 * must be in ipaddr.js's `unicast` range, which leaves out loopback, private, link-local (cloud metadata services
 * answer at 169.254.169.254), carrier-grade NAT, unique-local, multicast, reserved and the translation ranges that can
 * embed a private IPv4 address (IPv4-mapped addresses are judged as the IPv4 address they carry). Production takes
 * HTTPS only; development also takes `http://` and loopback, so a receiver on the developer's machine works.
 *
 * The check runs when an endpoint is registered or changed, and when the sender opens a connection: its DNS lookup
 * goes through `guardedLookup`, which resolves once, checks, and hands the socket the address it checked, so a DNS
 * answer that changes between the check and the connection (rebinding) cannot reach an internal address.
 */
export class UrlNotAllowedError extends Error {}

export function addressAllowed(address: string, environment: Environment): boolean {
  if (!ipaddr.isValid(address)) return false;
  const range = ipaddr.process(address).range();
  return range === 'unicast' || (environment === 'development' && range === 'loopback');
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
  const range = ipaddr.isValid(address) ? ipaddr.process(address).range() : 'invalid';
  const allowed = environment === 'development' ? 'public or loopback' : 'public';
  return `url must reach a ${allowed} address; ${address} is ${range === 'unicast' ? 'not allowed' : `a ${range} address`}.`;
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
 * A `lookup` for sockets (net/tls `connect`): resolves once, refuses the connection unless every address is allowed,
 * and connects to the first checked one.
 */
export function guardedLookup(environment: Environment): LookupFunction {
  return (hostname, options, callback) => {
    resolveAll(hostname).then(
      (addresses) => {
        const refused = addresses.find((entry) => !addressAllowed(entry.address, environment));
        if (refused || addresses.length === 0) {
          callback(new UrlNotAllowedError(refused ? notAllowed(refused.address, environment) : `${hostname} does not resolve`), '', 4);
          return;
        }
        if ((options as { all?: boolean }).all) (callback as unknown as (error: null, all: LookupAddress[]) => void)(null, addresses);
        else callback(null, addresses[0].address, addresses[0].family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 4),
    );
  };
}
