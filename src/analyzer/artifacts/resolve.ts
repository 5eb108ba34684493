// Resolving link and resource URLs cheaply. Pages hold thousands of references; most are plain
// ("/path", "#frag", "https://host/path") and resolve to themselves by string concatenation,
// exactly as the WHATWG URL parser would. Anything unusual goes through `new URL()`.

export interface Resolved {
  /** the serialised URL, as `new URL(raw, base).href` gives it */
  href: string;
  /** e.g. "https:", "mailto:" */
  protocol: string;
  /** lower-cased host name without port ('' for schemes without one) */
  hostname: string;
}

/** ASCII characters the URL parser copies unchanged into path, query and fragment. */
const SAFE = new Uint8Array(128);
for (const ch of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&()*+,;=:@/?#%') {
  SAFE[ch.charCodeAt(0)] = 1;
}
/** host characters we take as they are (lower-case DNS names) */
const HOST = new Uint8Array(128);
for (const ch of 'abcdefghijklmnopqrstuvwxyz0123456789-.') HOST[ch.charCodeAt(0)] = 1;

/**
 * Whether s[from..] passes through the URL parser unchanged: only SAFE characters, and no dot
 * segments ("/.", "%2e"), which the parser rewrites. One loop, no regex.
 */
function tailIsSafe(s: string, from = 0): boolean {
  for (let i = from; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 128 || SAFE[c] === 0) return false;
    if (c === 47 /* / */ && s.charCodeAt(i + 1) === 46 /* . */) return false;
    if (c === 37 /* % */ && s.charCodeAt(i + 1) === 50 && (s.charCodeAt(i + 2) | 0x20) === 101) return false;
  }
  return true;
}

/** "http(s)://host[/tail]" with a plain lower-case host (no port, user info, IP or odd dots). */
function absoluteFast(s: string): Resolved | null {
  const https = s.charCodeAt(4) === 115; // "https"
  const hostStart = https ? 8 : 7;
  let i = hostStart;
  let labelStart = i;
  let prev = 46; // "." so that a leading dot fails
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 47) break;
    if (c >= 128 || HOST[c] === 0) return null; // ":", "@", "?", "#", upper case, non-ASCII…
    if (c === 46) {
      if (prev === 46) return null;
      labelStart = i + 1;
    }
    prev = c;
  }
  if (i === hostStart || prev === 46) return null;
  // numeric or hex-looking last labels are IPv4 forms the parser normalises
  const first = s.charCodeAt(labelStart);
  if (first >= 48 && first <= 57) return null;
  const hostname = s.slice(hostStart, i);
  const protocol = https ? 'https:' : 'http:';
  if (i === s.length) return { href: `${s}/`, protocol, hostname };
  if (!tailIsSafe(s, i)) return null;
  return { href: s, protocol, hostname };
}

function fromUrl(u: URL): Resolved {
  return { href: u.href, protocol: u.protocol, hostname: u.hostname };
}

/** A resolver against `base`, with a cache (pages repeat the same URLs a lot). */
export function makeResolver(base: URL): (raw: string | null) => Resolved | null {
  const cache = new Map<string, Resolved | null>();
  const special = base.protocol === 'http:' || base.protocol === 'https:';
  const origin = base.origin;
  const noHash = base.hash ? base.href.slice(0, base.href.length - base.hash.length) : base.href;
  const noQuery = base.search ? noHash.slice(0, noHash.length - base.search.length) : noHash;
  const dir = noQuery.slice(0, noQuery.lastIndexOf('/') + 1);
  const baseResolved: Resolved = { href: '', protocol: base.protocol, hostname: base.hostname };

  const slow = (s: string): Resolved | null => {
    try {
      return fromUrl(new URL(s, base));
    } catch {
      return null;
    }
  };

  const fast = (s: string): Resolved | null => {
    if (!special) return slow(s);
    const c = s.charCodeAt(0);
    if (c === 35 /* # */) {
      return tailIsSafe(s) ? { ...baseResolved, href: noHash + s } : slow(s);
    }
    if (c === 63 /* ? */) {
      return tailIsSafe(s) ? { ...baseResolved, href: noQuery + s } : slow(s);
    }
    if (c === 47 /* / */) {
      if (s.charCodeAt(1) === 47) return absoluteFast(base.protocol + s) ?? slow(s);
      return tailIsSafe(s) ? { ...baseResolved, href: origin + s } : slow(s);
    }
    if (c === 104 /* h */ && (s.startsWith('https://') || s.startsWith('http://')))
      return absoluteFast(s) ?? slow(s);
    // a plain relative path ("page.html", "a/b?c"): no scheme before the first / ? #
    const isAlnum = (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57);
    if (isAlnum && tailIsSafe(s)) {
      const colon = s.indexOf(':');
      if (colon === -1) return { ...baseResolved, href: dir + s };
      const cut = s.search(/[/?#]/);
      if (cut !== -1 && cut < colon) return { ...baseResolved, href: dir + s };
    }
    return slow(s);
  };

  return (raw) => {
    if (raw === null) return null;
    const cached = cache.get(raw);
    if (cached !== undefined) return cached;
    // the parser strips leading/trailing C0 controls and spaces, and removes tabs and newlines
    let s = raw;
    const n = s.length;
    if (n === 0 || s.charCodeAt(0) <= 32 || s.charCodeAt(n - 1) <= 32) s = s.trim();
    let r: Resolved | null = null;
    if (s !== '') {
      // tabs and newlines inside are removed by the parser; tailIsSafe sends them to the slow path
      r = fast(s);
    }
    cache.set(raw, r);
    return r;
  };
}
