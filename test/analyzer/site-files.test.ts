// fetchSiteFiles: the one fetcher of a site's files, for an audit (all at once) and for a
// batch's discovery (one after another, as robots.txt allows). A fake fetchFile records the
// requests; no network.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fetchSiteFiles, type SiteFileFetcher } from '../../src/analyzer/fetch/site-files.js';
import type { ExtraResource } from '../../src/analyzer/types.js';

function fake(files: Record<string, string>) {
  const asked: { path: string; cap: number; headersOnly: boolean }[] = [];
  const fetchFile: SiteFileFetcher = async (url, { cap, headersOnly }) => {
    const path = new URL(url).pathname;
    asked.push({ path: path.startsWith('/pagegrade-404-check-') ? '/probe' : path, cap, headersOnly });
    const body = files[path];
    const r: ExtraResource = {
      url,
      finalUrl: url,
      status: body === undefined ? 404 : 200,
      headers: {},
      body: body ?? '',
      durationMs: 1,
    };
    return r;
  };
  return { asked, fetchFile };
}

test('site files of an audit: all five at once, the sitemap robots.txt names on the site', async () => {
  const { asked, fetchFile } = fake({
    '/robots.txt':
      'User-agent: *\nSitemap: https://other.example/s.xml\nSitemap: https://example.com/map.xml\n',
    '/map.xml': '<urlset/>',
  });
  const files = await fetchSiteFiles(new URL('https://example.com/page'), { fetchFile });
  assert.deepEqual(
    asked.map((a) => a.path),
    ['/sitemap.xml', '/robots.txt', '/probe', '/favicon.ico', '/llms.txt', '/map.xml'],
  );
  assert.equal(asked.find((a) => a.path === '/llms.txt')?.cap, 256 * 1024);
  assert.equal(files.llms?.status, 404);
  assert.deepEqual(
    asked.find((a) => a.path === '/favicon.ico'),
    { path: '/favicon.ico', cap: 0, headersOnly: true },
  );
  assert.equal(asked.find((a) => a.path === '/robots.txt')?.cap, 512 * 1024);
  assert.equal(files.sitemap?.url, 'https://example.com/map.xml');
  assert.equal(files.robots?.status, 200);
  assert.equal(files.notFoundProbe?.status, 404);
});

test('site files of a crawl: one after another, the probe and favicon only where robots.txt allows', async () => {
  const { asked, fetchFile } = fake({ '/robots.txt': 'User-agent: *\nDisallow: /\n' });
  let seen: ExtraResource | null = null;
  const files = await fetchSiteFiles(new URL('https://example.com/'), {
    fetchFile,
    afterRobots: (robots) => {
      seen = robots;
      return { sitemap: 'https://example.com/list.xml', allowed: () => false };
    },
  });
  assert.equal((seen as ExtraResource | null)?.body, 'User-agent: *\nDisallow: /\n');
  assert.deepEqual(
    asked.map((a) => a.path),
    ['/robots.txt', '/list.xml'],
  );
  assert.equal(files.notFoundProbe?.status, null);
  assert.equal(files.notFoundProbe?.error, 'Not requested: robots.txt disallows it.');
  assert.equal(files.favicon, null);
  // /llms.txt too is asked for only where robots.txt allows it
  assert.equal(files.llms, null);
});
