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

/** The project of a URL: its host name, lower-cased, one leading `www.` removed. */
export function projectOf(url: string): string {
  return projectName(new URL(url).hostname);
}

/**
 * A project name as given by a user (a filter, a project to delete) in its stored form: the
 * same rule as projectOf, so `WWW.Example.com` names the project `example.com`.
 */
export function projectName(name: string): string {
  const host = name.toLowerCase().replace(/\.$/, '');
  return host.startsWith('www.') ? host.slice(4) : host;
}
