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
const SAFE_TAIL = /^[A-Za-z0-9\-._~!$&()*+,;=:@/?#%]*$/;
/** "http(s)://host" + optional tail; hosts plain lower-case DNS names (no port, no user info) */
const ABSOLUTE = /^(https?):\/\/([a-z0-9-]+(?:\.[a-z0-9-]+)*)(\/[^]*)?$/;

function tailIsSafe(tail: string): boolean {
  // dot segments ("/./", "/../", "%2e") are rewritten by the parser: leave them to it
  return SAFE_TAIL.test(tail) && tail.indexOf('/.') === -1 && !/%2e/i.test(tail);
}

function absoluteFast(s: string): Resolved | null {
  const m = ABSOLUTE.exec(s);
  if (m === null) return null;
  const host = m[2]!;
  // numeric or hex-looking last labels are IPv4 forms the parser normalises
  const last = host.slice(host.lastIndexOf('.') + 1);
  const c = last.charCodeAt(0);
  if (c >= 48 && c <= 57) return null;
  const tail = m[3];
  if (tail === undefined) return { href: `${s}/`, protocol: `${m[1]}:`, hostname: host };
  if (!tailIsSafe(tail)) return null;
  return { href: s, protocol: `${m[1]}:`, hostname: host };
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
    if (c === 104 /* h */ && (s.startsWith('https://') || s.startsWith('http://'))) return absoluteFast(s) ?? slow(s);
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
    let s = raw.trim();
    let r: Resolved | null = null;
    if (s !== '') {
      if (/[\t\n\r]/.test(s)) s = s.replace(/[\t\n\r]/g, '');
      r = fast(s);
    }
    cache.set(raw, r);
    return r;
  };
}
