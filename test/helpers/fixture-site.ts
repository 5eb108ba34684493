// A generated fixture site for the batch tests (test/sites, test/pages), served by the test kit's
// fixture server on 127.0.0.1 as `site.test` (testLookup): sections and pages, a sitemap index
// (robots.txt `Sitemap:` line) with a gzip part, robots.txt with Disallow and Crawl-delay,
// a redirecting link, broken links, duplicate titles/descriptions, an orphan, a nofollow link,
// an infinite calendar, hreflang without a way back, a canonical to a 404, an off-site link,
// a link to a private address, a PDF. Every request is logged (host, path, time), and the
// requests in flight at once are counted.
import { gzipSync } from 'node:zlib';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startFixtureServer, type FixtureServer } from './fixture-server.js';

export interface SiteOptions {
  /** pages /p/1…/p/N (default 140) */
  pages?: number;
  /** robots.txt Crawl-delay in seconds (default 0.1; null: none) */
  crawlDelay?: number | null;
  /** every answer waits this long (default 0) */
  latencyMs?: number;
  /** every answer also waits for this (a test's gate: the crawl runs until the test lets it go) */
  hold?: () => Promise<void>;
  /** the bench: no traps, only pages */
  plain?: boolean;
}

export interface LoggedRequest {
  host: string;
  path: string;
  at: number;
  /** GET for pages and site files; HEAD for a batch's link and resource checks (docs/sites.md) */
  method: string;
}

export interface FixtureSite {
  fixture: FixtureServer;
  /** http://site.test:PORT */
  origin: string;
  log: LoggedRequest[];
  maxInFlight: number;
  /** the URLs a full crawl (max_depth ≥ 4, enough max_pages) audits (reports), failed, and skips */
  expected: { audited: string[]; failed: string[]; redirects: string[] };
  close(): Promise<void>;
}

const SECTIONS = 10;

function page(title: string, body: string, head = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<meta name="description" content="About ${title}, a page of the fixture site.">
<meta name="viewport" content="width=device-width, initial-scale=1">${head}</head>
<body><h1>${title}</h1><p>Some words about ${title} so that the page has text.</p>${body}</body></html>`;
}

export async function startFixtureSite(o: SiteOptions = {}): Promise<FixtureSite> {
  const n = o.pages ?? 140;
  const perSection = Math.ceil(n / SECTIONS);
  const fixture = await startFixtureServer();
  const origin = `http://site.test:${fixture.port}`;
  const log: LoggedRequest[] = [];
  let inFlight = 0;
  const site = { maxInFlight: 0 };
  fixture.server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    log.push({
      host: String(req.headers.host ?? ''),
      path: req.url ?? '',
      at: performance.now(),
      method: req.method ?? 'GET',
    });
    inFlight++;
    site.maxInFlight = Math.max(site.maxInFlight, inFlight);
    res.once('close', () => inFlight--);
  });
  const delay = async () => {
    if (o.latencyMs) await new Promise((r) => setTimeout(r, o.latencyMs));
    await o.hold?.();
  };
  const serve =
    (status: number, type: string, body: string | Buffer, headers: Record<string, string> = {}) =>
    async (_req: IncomingMessage, res: ServerResponse) => {
      await delay();
      res.writeHead(status, { 'content-type': type, ...headers });
      res.end(body);
    };
  const htmlRoute = (body: string, status = 200) => serve(status, 'text/html; charset=utf-8', body);
  const u = (path: string) => `${origin}${path}`;

  const sectionOf = (i: number) => Math.ceil(i / perSection);
  const audited: string[] = [u('/')];
  const failed: string[] = [];
  const redirects: string[] = [];

  // robots.txt
  const robots = [
    'User-agent: *',
    'Disallow: /private/',
    ...(o.crawlDelay === null ? [] : [`Crawl-delay: ${o.crawlDelay ?? 0.1}`]),
    `Sitemap: ${u('/sitemap_index.xml')}`,
    '',
  ].join('\n');
  fixture.route('/robots.txt', serve(200, 'text/plain', robots));

  // home: the sections, and the traps
  const traps = o.plain
    ? ''
    : `<a href="/calendar?month=1">Calendar</a> <a href="/private/secret">Secret</a>
<a href="http://elsewhere.test:${fixture.port}/">Elsewhere</a> <a href="http://10.1.2.3/">Intranet</a>
<a href="/file.pdf">PDF</a> <a href="/en">English</a> <a href="/p/1?utm_source=home#top">First</a>
<a href="mailto:x@example.com">Mail</a>`;
  const sectionLinks = Array.from(
    { length: SECTIONS },
    (_, k) => `<a href="/s/${k + 1}">Section ${k + 1}</a>`,
  ).join(' ');
  fixture.route('/', htmlRoute(page('Home', `${sectionLinks} ${traps}`)));
  for (let k = 1; k <= SECTIONS; k++) {
    const links: string[] = [];
    for (let i = (k - 1) * perSection + 1; i <= Math.min(n, k * perSection); i++)
      links.push(`<a href="/p/${i}">Page ${i}</a>`);
    fixture.route(`/s/${k}`, htmlRoute(page(`Section ${k}`, `<a href="/">Home</a> ${links.join(' ')}`)));
    audited.push(u(`/s/${k}`));
  }
  for (let i = 1; i <= n; i++) {
    let title = `Page ${i}`;
    let extra = '';
    let head = '';
    if (!o.plain) {
      if (i === 5) extra = '<a href="/old">Old</a>';
      if (i === 7) extra = '<a href="/missing">Missing</a>';
      if (i === 8 || i === 9) title = 'Duplicate title';
      if (i === 10) extra = '<a href="/nofollowed" rel="nofollow">Hidden</a>';
      if (i === 11) head = `<link rel="canonical" href="${u('/gone-canonical')}">`;
    }
    fixture.route(
      `/p/${i}`,
      htmlRoute(
        page(
          title,
          `<a href="/s/${sectionOf(i)}">Up</a> <a href="/p//${(i % n) + 1}">Next</a> ${extra}`,
          head,
        ),
      ),
    );
    audited.push(u(`/p/${i}`));
  }
  const sitemapA = [u('/'), ...Array.from({ length: SECTIONS }, (_, k) => u(`/s/${k + 1}`))];
  const sitemapB = Array.from({ length: Math.floor(n / 2) }, (_, i) => u(`/p/${i + 1}`));
  if (!o.plain) {
    fixture.route('/old', serve(301, 'text/html', '', { location: '/p/6' }));
    redirects.push(u('/old'));
    fixture.route('/moved', serve(301, 'text/html', '', { location: '/p/2' }));
    redirects.push(u('/moved'));
    failed.push(u('/missing'), u('/gone-canonical'));
    fixture.route('/orphan', htmlRoute(page('Orphan', '<a href="/">Home</a>')));
    fixture.route(
      '/noindex-page',
      htmlRoute(page('Noindex', '<a href="/">Home</a>', '<meta name="robots" content="noindex">')),
    );
    fixture.route(
      '/en',
      htmlRoute(
        page(
          'English',
          '<a href="/de">Deutsch</a>',
          `<link rel="alternate" hreflang="de" href="${u('/de')}">`,
        ),
      ),
    );
    fixture.route('/de', htmlRoute(page('Deutsch', '<a href="/en">English</a>')));
    audited.push(u('/orphan'), u('/noindex-page'), u('/en'), u('/de'));
    sitemapA.push(u('/orphan'), u('/noindex-page'), u('/en'), u('/de'));
    sitemapB.push(u('/moved'));
    // an infinite calendar: every month links to the next
    fixture.route('/calendar', async (req, res) => {
      await delay();
      const m = Number(new URL(req.url ?? '/', origin).searchParams.get('month') ?? '1');
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        page(`Calendar ${m}`, `<a href="/calendar?month=${m + 1}">Next month</a> <a href="/">Home</a>`),
      );
    });
    for (let m = 1; m <= 4; m++) audited.push(u(`/calendar?month=${m}`));
  }
  const urlset = (urls: string[]) =>
    `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.map((x) => `<url><loc>${x}</loc></url>`).join('')}</urlset>`;
  fixture.route(
    '/sitemap_index.xml',
    serve(
      200,
      'application/xml',
      `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${u('/sitemap-a.xml')}</loc></sitemap><sitemap><loc>${u('/sitemap-b.xml.gz')}</loc></sitemap></sitemapindex>`,
    ),
  );
  fixture.route('/sitemap-a.xml', serve(200, 'application/xml', urlset(sitemapA)));
  fixture.route('/sitemap-b.xml.gz', serve(200, 'application/gzip', gzipSync(urlset(sitemapB))));

  return {
    fixture,
    origin,
    log,
    get maxInFlight() {
      return site.maxInFlight;
    },
    expected: { audited, failed, redirects },
    close: () => fixture.close(),
  };
}
