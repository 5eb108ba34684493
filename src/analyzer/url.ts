// URL rules shared by the API and the engine: normalisation and the project a URL belongs to.

/**
 * Normalises a page URL as stored: scheme and host lower-cased (WHATWG URL does this),
 * fragment dropped, default port dropped. Returns null for anything that is not an absolute
 * http(s) URL.
 */
export function normalizeUrl(input: string): string | null {
  let u: URL;
  try {
    u = new URL(input.trim());
  } catch {
    return null;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
  if (!u.hostname) return null;
  u.hash = '';
  return u.toString();
}

/**
 * The http(s) URL a person probably meant by an input that is not one, or null: a bare host or
 * host and path ("example.com", "www.example.com/pricing", "//example.com") → "https://…/".
 * Only when the host looks like a host name (a dot, or localhost) and nothing else is wrong.
 */
export function suggestUrl(input: string): string | null {
  const s = input.trim();
  if (s === '' || /\s/.test(s) || /^[a-z][a-z0-9+.-]*:\/\//i.test(s)) return null;
  const rest = s.startsWith('//') ? s.slice(2) : s;
  // "example.com:8080/x" parses as a scheme "example.com:"; keep only host-like starts
  if (!/^[a-z0-9[]/i.test(rest)) return null;
  const url = normalizeUrl(`https://${rest}`);
  if (url === null) return null;
  const host = new URL(url).hostname;
  if (!host.includes('.') && host !== 'localhost') return null;
  return url;
}

/** " did you mean https://example.com/?" for a likely URL, else "" (appended to a message). */
export function didYouMean(input: string): string {
  const s = suggestUrl(input);
  return s === null ? '' : `; did you mean ${s}?`;
}

/**
 * A host name without one leading `www.`. Compared as given: host names from `new URL()` are
 * already lower-case (lower-case others first, or use sameSite).
 */
export function stripWww(host: string): string {
  return host.charCodeAt(0) === 119 && host.startsWith('www.') ? host.slice(4) : host;
}

/** Whether two host names are the same site: equal once lower-cased with one leading `www.` dropped. */
export function sameSite(a: string, b: string): boolean {
  return stripWww(a.toLowerCase()) === stripWww(b.toLowerCase());
}

/** The project of a URL: its host name, lower-cased, one leading `www.` removed. */
export function projectOf(url: string): string {
  return projectName(new URL(url).hostname);
}

/**
 * A project name as given by a user (a filter, a project to delete) in its stored form: the
 * same rule as projectOf, so `WWW.Example.com` names the project `example.com`.
 */
export function projectName(name: string): string {
  return stripWww(name.toLowerCase().replace(/\.$/, ''));
}
