/**
 * Which addresses a ticket's image may be fetched from. A description is written by a learner's mentor session, so an
 * image address is untrusted: without these checks "show images" would let a learner make the admin's computer
 * request its own loopback services, the office network or the cloud metadata endpoint (169.254.169.254).
 *
 * The rule: the host must resolve only to public unicast addresses (every address it resolves to, so a name that
 * also points inside is refused), and the connection goes to the address that was checked (no second lookup that
 * could answer differently). The one exception is the tenant's own origin: the app already talks to it with its
 * credentials, so an image there (fetched without them) reaches nothing new; the local sandbox is such a tenant, on
 * loopback. Each redirect is a new request and is checked again.
 */
import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { EngineError } from '../errors';

/** Every address a host name resolves to. */
export type Resolver = (host: string) => Promise<string[]>;

export const systemResolver: Resolver = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

const RANGE_WORDS: Record<string, string> = {
  loopback: 'a loopback address (this computer)',
  private: 'a private network address',
  uniqueLocal: 'a private network address',
  linkLocal: 'a link-local address',
  carrierGradeNat: 'a carrier-grade NAT address',
  unspecified: 'an unspecified address',
  broadcast: 'a broadcast address',
  multicast: 'a multicast address',
};

/** IPv6 forms that carry an IPv4 address in their last 32 bits (which is what they reach). */
const EMBEDS_IPV4 = new Set(['ipv4Mapped', 'rfc6145', 'rfc6052']);

/** Why an image may not be fetched from this IP address, or null when it may (public unicast). */
export function refusedAddress(address: string): string | null {
  if (!ipaddr.isValid(address)) return 'not an IP address';
  let ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv6' && EMBEDS_IPV4.has(ip.range())) {
    ip = ipaddr.fromByteArray(ip.toByteArray().slice(12));
  }
  const range = ip.range();
  if (range === 'unicast') return null;
  return RANGE_WORDS[range] ?? `a special-purpose address (${range})`;
}

/** The host of a URL as the resolver and the address check take it (IPv6 literals without brackets). */
const bareHost = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

export interface ImageTarget {
  /** The addresses to connect to (those that were checked). */
  addresses: string[];
}

/**
 * Decides whether `url` may be fetched: its scheme, and the addresses its host resolves to (any address for a
 * trusted origin). Throws an EngineError that says why not; otherwise returns the addresses to connect to.
 */
export async function checkImageUrl(
  url: URL,
  options: { resolve: Resolver; trustedOrigins: readonly string[] },
): Promise<ImageTarget> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new EngineError('validation', `The image is not fetched: ${url.protocol} addresses are not images.`);
  }
  const host = bareHost(url);
  let addresses: string[];
  if (ipaddr.isValid(host)) addresses = [host];
  else {
    try {
      addresses = await options.resolve(host);
    } catch {
      throw new EngineError('unreachable', `The image could not be loaded: ${url.host} is not a known host.`);
    }
  }
  if (!addresses.length) {
    throw new EngineError('unreachable', `The image could not be loaded: ${url.host} is not a known host.`);
  }
  if (options.trustedOrigins.includes(url.origin)) return { addresses };
  for (const address of addresses) {
    const why = refusedAddress(address);
    if (why) {
      const shown = address === host ? url.host : `${url.host} (${address})`;
      throw new EngineError(
        'validation',
        `The image is not fetched: ${shown} is ${why}, and a ticket may only show images from the internet or from the tenant.`,
      );
    }
  }
  return { addresses };
}
