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
