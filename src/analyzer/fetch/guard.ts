// The address guard: which IP addresses the fetcher may connect to. Every DNS answer and
// every connected socket goes through classifyAddress(); a non-null answer names the refused
// range and the fetch stops before (or instead of) any connection.
//
// The tables follow the IANA IPv4 and IPv6 Special-Purpose Address Registries, plus multicast
// and the IPv6 space outside global unicast (2000::/3). IPv4 hidden in IPv6 is unwrapped:
// IPv4-mapped (::ffff:0:0/96) and NAT64 (64:ff9b::/96) addresses are judged by the IPv4 they
// carry; IPv4-compatible (::/96), local-use NAT64 (64:ff9b:1::/48), 6to4 (2002::/16) and
// Teredo (2001::/32) are refused outright, naming the IPv4 they embed.
import { isIPv4, isIPv6 } from 'node:net';

/**
 * 4, 6 or 0, as `net.isIP` — but a string without a colon is never tested as IPv6: Node's IPv6
 * pattern is compiled at its first use (~20 ms, most of a host name check in a fresh process).
 */
export function ipFamily(s: string): 0 | 4 | 6 {
  if (isIPv4(s)) return 4;
  return s.includes(':') && isIPv6(s) ? 6 : 0;
}

interface Range {
  /** address bytes (4 or 16) */
  bytes: number[];
  prefix: number;
  name: string;
}

function parseIPv4(ip: string): number[] | null {
  const parts = ip.split('.');
  if (parts.length !== 4) return null;
  const out: number[] = [];
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p)) return null;
    const n = Number(p);
    if (n > 255) return null;
    out.push(n);
  }
  return out;
}

function parseIPv6(input: string): number[] | null {
  let ip = input;
  const zone = ip.indexOf('%');
  if (zone !== -1) ip = ip.slice(0, zone);
  return ipFamily(ip) === 6 ? ipv6Bytes(ip) : null;
}

/**
 * The 16 bytes of an address already known to be IPv6 (or null if it is not one after all).
 * The range tables below are written with it directly: they are constants, and testing them
 * with Node's IPv6 pattern would compile it at import (~4 ms of every `pagegrade audit`).
 */
function ipv6Bytes(input: string): number[] | null {
  let ip = input;
  // an embedded dotted quad at the end becomes two hextets
  const lastColon = ip.lastIndexOf(':');
  const tail = ip.slice(lastColon + 1);
  if (tail.includes('.')) {
    const v4 = parseIPv4(tail);
    if (!v4) return null;
    ip = `${ip.slice(0, lastColon + 1)}${((v4[0]! << 8) | v4[1]!).toString(16)}:${((v4[2]! << 8) | v4[3]!).toString(16)}`;
  }
  const [head, rest] = ip.includes('::') ? (ip.split('::') as [string, string]) : [ip, null];
  const h = head ? head.split(':') : [];
  const r = rest === null ? [] : rest ? rest.split(':') : [];
  const fill = rest === null ? 0 : 8 - h.length - r.length;
  const words = [...h, ...new Array<string>(fill).fill('0'), ...r].map((w) => parseInt(w, 16));
  if (words.length !== 8 || words.some((w) => Number.isNaN(w))) return null;
  return words.flatMap((w) => [w >> 8, w & 0xff]);
}

function range(cidr: string, name: string): Range {
  const [addr, len] = cidr.split('/') as [string, string];
  const bytes = addr.includes(':') ? ipv6Bytes(addr) : parseIPv4(addr);
  if (!bytes) throw new Error(`bad range ${cidr}`);
  return { bytes, prefix: Number(len), name };
}

function inRange(bytes: number[], r: Range): boolean {
  if (bytes.length !== r.bytes.length) return false;
  let bits = r.prefix;
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((bytes[i]! & mask) !== (r.bytes[i]! & mask)) return false;
  }
  return true;
}

/** Refused IPv4 ranges, most specific first (the first match names the refusal). */
export const IPV4_REFUSED: readonly Range[] = [
  range('0.0.0.0/8', 'an unspecified ("this network") address'),
  range('10.0.0.0/8', 'a private address'),
  range('100.64.0.0/10', 'a carrier-grade NAT (shared) address'),
  range('127.0.0.0/8', 'a loopback address'),
  range('169.254.0.0/16', 'a link-local address'),
  range('172.16.0.0/12', 'a private address'),
  range('192.0.0.0/24', 'an IETF protocol assignment address'),
  range('192.0.2.0/24', 'a documentation (TEST-NET-1) address'),
  range('192.31.196.0/24', 'an AS112 (special DNS) address'),
  range('192.52.193.0/24', 'an AMT (special-purpose) address'),
  range('192.88.99.0/24', 'a 6to4 relay anycast (deprecated) address'),
  range('192.168.0.0/16', 'a private address'),
  range('192.175.48.0/24', 'an AS112 (special DNS) address'),
  range('198.18.0.0/15', 'a benchmarking address'),
  range('198.51.100.0/24', 'a documentation (TEST-NET-2) address'),
  range('203.0.113.0/24', 'a documentation (TEST-NET-3) address'),
  range('224.0.0.0/4', 'a multicast address'),
  range('255.255.255.255/32', 'the broadcast address'),
  range('240.0.0.0/4', 'a reserved address'),
];

/** Refused IPv6 ranges; the IPv4-embedding ones are handled in classifyAddress first. */
export const IPV6_REFUSED: readonly Range[] = [
  range('::/128', 'the unspecified address'),
  range('::1/128', 'a loopback address'),
  range('100::/64', 'a discard-only address'),
  range('100:0:0:1::/64', 'a dummy-prefix address'),
  range('2001:db8::/32', 'a documentation address'),
  range('2001::/23', 'an IETF protocol assignment address'),
  range('2620:4f:8000::/48', 'an AS112 (special DNS) address'),
  range('3fff::/20', 'a documentation address'),
  range('5f00::/16', 'an SRv6 SID address'),
  range('fc00::/7', 'a private (unique local) address'),
  range('fe80::/10', 'a link-local address'),
  range('fec0::/10', 'a site-local (deprecated) address'),
  range('ff00::/8', 'a multicast address'),
];

const GLOBAL_UNICAST = range('2000::/3', 'global unicast');
const MAPPED = range('::ffff:0:0/96', 'IPv4-mapped');
const COMPAT = range('::/96', 'IPv4-compatible');
const NAT64 = range('64:ff9b::/96', 'NAT64');
const NAT64_LOCAL = range('64:ff9b:1::/48', 'local-use NAT64');
const SIX_TO_FOUR = range('2002::/16', '6to4');
const TEREDO = range('2001::/32', 'Teredo');

const v4 = (b: number[]) => b.join('.');

/**
 * Returns null when the address may be fetched, or the refused range's description
 * ("a loopback address", "a private address", …). Anything that is not an IP address is refused.
 */
export function classifyAddress(ip: string): string | null {
  const clean = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  const family = ipFamily(clean.split('%')[0] ?? '');
  if (family === 4) {
    const b = parseIPv4(clean);
    if (!b) return 'not a valid IP address';
    return IPV4_REFUSED.find((r) => inRange(b, r))?.name ?? null;
  }
  if (family !== 6) return 'not a valid IP address';
  const b = parseIPv6(clean);
  if (!b) return 'not a valid IP address';
  const low4 = b.slice(12);
  if (inRange(b, MAPPED) || inRange(b, NAT64)) {
    const inner = classifyAddress(v4(low4));
    const kind = inRange(b, MAPPED) ? 'an IPv4-mapped IPv6 address' : 'a NAT64 address';
    return inner === null ? null : `${kind} embedding ${v4(low4)}, ${inner}`;
  }
  if (inRange(b, COMPAT) && !inRange(b, IPV6_REFUSED[0]!) && !inRange(b, IPV6_REFUSED[1]!)) {
    return `an IPv4-compatible IPv6 address (deprecated) embedding ${v4(low4)}`;
  }
  if (inRange(b, NAT64_LOCAL)) return 'a local-use NAT64 address';
  if (inRange(b, SIX_TO_FOUR)) return `a 6to4 address embedding ${v4(b.slice(2, 6))}`;
  if (inRange(b, TEREDO)) return `a Teredo address embedding ${v4(low4.map((x) => x ^ 0xff))}`;
  const named = IPV6_REFUSED.find((r) => inRange(b, r));
  if (named) return named.name;
  if (!inRange(b, GLOBAL_UNICAST)) return 'a reserved address (outside IPv6 global unicast 2000::/3)';
  return null;
}

/** A URL host as the fetcher sees it: lower-cased, numeric IPv4 forms normalised, brackets and trailing dot removed. */
export interface NormalizedHost {
  host: string;
  /** 0 for a name, 4 or 6 for an IP literal */
  family: 0 | 4 | 6;
}

/**
 * Normalises a host the way WHATWG URL does (decimal `2130706433`, octal `0177.0.0.1`, hex
 * `0x7f.1` and short `127.1` all become `127.0.0.1`; IPv6 is compressed; names are
 * lower-cased and IDNA-encoded), then drops IPv6 brackets and one trailing dot.
 * Returns null when the host is not valid.
 */
export function normalizeHost(input: string): NormalizedHost | null {
  let raw = input.trim();
  if (raw === '') return null;
  if (ipFamily(raw) === 6) raw = `[${raw}]`;
  let hostname: string;
  try {
    hostname = new URL(`http://${raw}/`).hostname;
  } catch {
    return null;
  }
  if (hostname.startsWith('[') && hostname.endsWith(']')) return { host: hostname.slice(1, -1), family: 6 };
  const host = hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
  if (host === '') return null;
  const family = ipFamily(host);
  return { host, family: family === 4 ? 4 : 0 };
}
