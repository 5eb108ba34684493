// The sitemap the audit found (robots.txt Sitemap: line or /sitemap.xml) is well-formed: XML
// that parses, a <urlset> or <sitemapindex> root, at least one <loc>, and only URLs of this
// site. Not applicable when no sitemap was found (the `sitemap` check reports that).
import type { CheckDefinition } from '../types.js';
import { agree, clip, listDetails, plural } from '../types.js';
import { stripWww } from '../../url.js';

/** The first element's name (prefix dropped, lower-cased), from the first 4 KB only. */
export function rootElement(xml: string): string | null {
  const head = xml.slice(0, 4096);
  // <?xml?>, <!-- --> and <!DOCTYPE> cannot match (? and ! are excluded): the first real tag wins
  const m = /<([^\s/>?!]+)[\s/>]/.exec(head.replace(/<!--[\s\S]*?-->/g, ''));
  if (m === null) return null;
  const name = m[1]!.toLowerCase();
  const colon = name.indexOf(':');
  return colon === -1 ? name : name.slice(colon + 1);
}

/** URLs parsed with new URL() after the prefix test fails; past it they count as foreign */
const MAX_PARSED = 2000;

function bareHost(h: string): string {
  return stripWww(h.toLowerCase());
}

/** URLs that are not absolute http(s) URLs of `host` (www. ignored): a prefix test first, parsing only the rest. */
export function foreignUrls(urls: readonly string[], host: string): { count: number; examples: string[] } {
  // the same sitemap's URL list is shared by every page of a batch (artifacts/index.ts memo)
  let byHost = foreignMemo.get(urls);
  if (byHost === undefined) foreignMemo.set(urls, (byHost = new Map()));
  let found = byHost.get(host);
  if (found === undefined) byHost.set(host, (found = countForeign(urls, host)));
  return { count: found.count, examples: [...found.examples] };
}

const foreignMemo = new WeakMap<readonly string[], Map<string, { count: number; examples: string[] }>>();

function countForeign(urls: readonly string[], host: string): { count: number; examples: string[] } {
  const p1 = `https://${host}/`;
  const p2 = `https://www.${host}/`;
  const p3 = `http://${host}/`;
  const p4 = `http://www.${host}/`;
  const examples: string[] = [];
  let count = 0;
  let parsed = 0;
  for (let i = 0; i < urls.length; i++) {
    const raw = urls[i]!;
    if (raw.startsWith(p1) || raw.startsWith(p2) || raw.startsWith(p3) || raw.startsWith(p4)) continue;
    // other spellings (upper case, a port, the bare origin): parse, up to a bound
    let ok = false;
    if (parsed < MAX_PARSED) {
      parsed++;
      ok = sameHost(raw, host);
    }
    if (!ok) {
      count++;
      if (examples.length < 50) examples.push(clip(raw, 150));
    }
  }
  return { count, examples };
}

function sameHost(raw: string, host: string): boolean {
  try {
    const u = new URL(raw);
    return (u.protocol === 'http:' || u.protocol === 'https:') && bareHost(u.hostname) === host;
  } catch {
    return false;
  }
}

const check: CheckDefinition = {
  id: 'sitemap_valid',
  category: 'miscellaneous',
  priority: 'low',
  title: 'The XML sitemap is valid',
  failTitle: 'The XML sitemap is not valid',
  howToFix:
    'Serve a sitemap that is well-formed XML with a <urlset> (or <sitemapindex>) root in the sitemaps.org namespace, one <url><loc>https://…</loc></url> per page, and only URLs of this site (same host as the sitemap).',
  failsWhen:
    'the sitemap found is not well-formed XML, its root is not `<urlset>`/`<sitemapindex>`, it lists no `<loc>`, or lists URLs of another host. Not applicable when no sitemap was found',
  needsContent: false,
  run(a) {
    const s = a.sitemap;
    if (s === null || s.status === null || s.status < 200 || s.status >= 300 || !/\S/.test(s.body))
      return 'not_applicable';
    // an HTML page at /sitemap.xml with no sitemap named in robots.txt: the `sitemap` check already fails
    const declared = a.robots?.parsed?.getSitemaps() ?? [];
    if (s.contentType === 'text/html' && declared.length === 0) return 'not_applicable';
    const where = s.finalUrl || s.url;
    if (!s.isXml) {
      // plain-text sitemaps (one absolute URL a line) are allowed by the major search engines
      const lines = s.body
        .split(/\r?\n/)
        .map((l) => l.trim())
        .filter(Boolean);
      if (
        lines.length > 0 &&
        lines.length <= 50_000 &&
        !s.body.trimStart().startsWith('<') &&
        lines.every((l) => /^https?:\/\/\S+$/i.test(l))
      ) {
        return {
          passed: true,
          message: `${where} is a plain-text sitemap with ${lines.length} URL${lines.length === 1 ? '' : 's'}.`,
          value: lines.length,
        };
      }
      return {
        passed: false,
        message: `${where} is not well-formed XML: ${clip(s.parseError ?? 'it does not parse', 160)}.`,
        value: 0,
      };
    }
    const root = rootElement(s.body);
    if (root === 'rss' || root === 'feed') {
      return {
        passed: true,
        message: `${where} is an ${root === 'rss' ? 'RSS' : 'Atom'} feed, which search engines accept as a sitemap.`,
        value: s.urls.length,
      };
    }
    if (root !== 'urlset' && root !== 'sitemapindex') {
      return {
        passed: false,
        message: `${where} has a <${root ?? '?'}> root element; a sitemap's root is <urlset> or <sitemapindex>.`,
        value: s.urls.length,
      };
    }
    const kind = root === 'sitemapindex' ? 'sitemap index' : 'sitemap';
    if (s.urls.length === 0) {
      return { passed: false, message: `The ${kind} ${where} lists no <loc> URLs.`, value: 0 };
    }
    // same host (www. ignored) as the page; a cheap prefix test first, parsing only the rest
    const host = bareHost(a.finalUrlParsed.hostname);
    const { count: foreignCount, examples: foreign } = foreignUrls(s.urls, host);
    if (foreignCount > 0) {
      const details = {
        ...listDetails(foreign),
        ...(foreignCount > foreign.length ? { truncated: foreignCount - foreign.length } : {}),
      };
      return {
        passed: false,
        message: `${foreignCount} of ${plural(s.urls.length, 'URL')} in the ${kind} ${where} ${agree(foreignCount, 'is not an absolute URL', 'are not absolute URLs')} of ${host}; search engines ignore ${agree(foreignCount, 'it', 'them')}.`,
        value: foreignCount,
        details,
      };
    }
    return {
      passed: true,
      message: `The ${kind} ${where} parses and lists ${s.urls.length}${s.urls.length >= 50_000 ? '+' : ''} URL${s.urls.length === 1 ? '' : 's'} of ${host}.`,
      value: s.urls.length,
    };
  },
};

export default check;
