// Whole sites (docs/sites.md): batches through the API, worked by the real job engine (the
// jobs table on SQLite and PostgreSQL, and BullMQ on Redis), crawling a generated fixture site
// on 127.0.0.1 (test/helpers/fixture-site.ts) that logs every request.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { audits } from '../../src/metrics.js';
import { sqliteDialect } from '../helpers/db.js';
import { engineSetups, startBatchApp, type BatchApp, type EngineSetup } from '../helpers/batch-app.js';
import { buildUser, type TestUser } from '../helpers/factories.js';
import { waitFor } from '../helpers/queues.js';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.js';
import { parseCsv } from '../helpers/csv.js';

const setups = engineSetups(sqliteDialect);

type Running = BatchApp & { user: TestUser };

async function start(s: EngineSetup): Promise<Running> {
  const app = await startBatchApp(s.dialect, {
    redis: s.redis,
    config: { crawlDelayMs: 0, crawlConcurrency: 2 },
  });
  return { ...app, user: await buildUser(app.t.services) };
}

type Json = Record<string, unknown> & { data: Record<string, unknown> };

async function waitDone(r: Running, id: number, timeoutMs = 120_000): Promise<Record<string, unknown>> {
  const b = await waitFor(
    async () => {
      await new Promise((res) => setTimeout(res, 200));
      const res = await r.t.request({ method: 'GET', url: `/api/v1/batches/${id}`, headers: r.user.auth });
      const b = (res.json() as Json).data;
      return ['done', 'cancelled', 'failed'].includes(b['status'] as string) ? b : null;
    },
    `batch ${id} to finish`,
    timeoutMs,
  );
  return b!;
}

for (const s of setups) {
  describe(`batches [${s.name}]`, { skip: s.skip }, () => {
    let r: Running;
    let site: FixtureSite;
    before(async () => {
      r = await start(s);
      site = await startFixtureSite({ pages: 140, crawlDelay: 0.1 });
    });
    after(async () => {
      await r?.close();
      await site?.close();
    });

    test('a crawl audits exactly the expected pages, politely, and finds the site-level problems', async () => {
      const res = await r.t.request({
        method: 'POST',
        url: '/api/v1/batches',
        headers: { ...r.user.auth, 'content-type': 'application/json' },
        payload: { url: `${site.origin}/`, mode: 'crawl', max_pages: 1000, max_depth: 4 },
      });
      assert.equal(res.statusCode, 202, res.body);
      const created = (res.json() as Json).data;
      const id = created['id'] as number;
      assert.equal(res.headers.location, `http://pagegrade.test:8080/api/v1/batches/${id}`);

      // SSE: progress events, then end
      const sse = r.t.app.inject({
        method: 'GET',
        url: `/api/v1/batches/${id}/events`,
        headers: r.user.auth,
      });

      const done = await waitDone(r, id);
      assert.equal(done['status'], 'done');
      const events = await sse;
      assert.equal(events.statusCode, 200);
      assert.match(String(events.headers['content-type']), /^text\/event-stream/);
      const progress = [...events.body.matchAll(/^event: (progress|end)\ndata: (.*)$/gm)].map((m) => ({
        event: m[1],
        data: JSON.parse(m[2]!) as { status: string; progress: { audited: number } },
      }));
      assert.ok(progress.length >= 3, `several events (${progress.length})`);
      assert.equal(progress.at(-1)!.event, 'end');
      assert.equal(progress.at(-1)!.data.status, 'done');
      const audits = progress.map((p) => p.data.progress.audited);
      assert.deepEqual(
        audits,
        [...audits].sort((a, b) => a - b),
        'audited never goes down',
      );

      // exactly the expected reports
      const reports: string[] = [];
      for (let page = 1; ; page++) {
        const list = await r.t.request({
          method: 'GET',
          url: `/api/v1/reports?batch=${id}&per_page=100&page=${page}`,
          headers: r.user.auth,
        });
        assert.equal(list.statusCode, 200);
        const body = list.json() as { data: { url: string; project: string }[] };
        reports.push(...body.data.map((d) => d.url));
        if (body.data.length < 100) break;
      }
      assert.deepEqual([...reports].sort(), [...site.expected.audited].sort());
      assert.equal(new Set(reports).size, reports.length, 'no page stored twice');

      // failures with their reasons
      const failures = await r.t.request({
        method: 'GET',
        url: `/api/v1/batches/${id}/failures?per_page=100`,
        headers: r.user.auth,
      });
      const failed = (
        failures.json() as { data: { url: string; reason: string; status_code: number | null }[] }
      ).data;
      for (const f of site.expected.failed) {
        const row = failed.find((x) => x.url === f);
        assert.ok(row, `${f} is listed as failed`);
        assert.match(row.reason, /404/);
      }
      for (const rd of site.expected.redirects) {
        assert.match(failed.find((x) => x.url === rd)?.reason ?? '', /Redirects to/);
      }
      assert.match(failed.find((x) => x.url.endsWith('/private/secret'))?.reason ?? '', /robots/);

      // the site only, never a disallowed, nofollow, non-HTML or off-site URL; every page once
      const host = new URL(site.origin).host;
      assert.deepEqual(
        site.log.filter((l) => l.host !== host),
        [],
        'no off-site request',
      );
      const paths = site.log.map((l) => l.path);
      for (const bad of ['/private/secret', '/nofollowed'])
        assert.ok(!paths.includes(bad), `${bad} never requested`);
      // a link target the crawl does not audit (not HTML, past max_depth) is checked once, with
      // HEAD, at the end (docs/sites.md "Links and resources checked"), never fetched as a page
      for (const checked of ['/file.pdf', '/calendar?month=5'])
        assert.deepEqual(
          site.log.filter((l) => l.path === checked).map((l) => l.method),
          ['HEAD'],
          `${checked}: checked once`,
        );
      assert.ok(
        !site.log.some((l) => l.path.startsWith('/calendar?month=6')),
        'the calendar stops at max_depth',
      );
      // the fetcher follows a redirect at once: /old → /p/6 and /moved → /p/2 are requested again as hops
      const hops = new Set(['/p/2', '/p/6']);
      const pagePaths = paths.filter(
        (p) => !/^\/(robots\.txt|sitemap|favicon\.ico|pagegrade-404-check)/.test(p) && !hops.has(p),
      );
      assert.equal(
        new Set(pagePaths).size,
        pagePaths.length,
        `no page requested twice: ${pagePaths.filter((p, i) => pagePaths.indexOf(p) !== i).join(' ')}`,
      );
      assert.equal(paths.filter((p) => p === '/robots.txt').length, 1, 'robots.txt once per batch');

      // politeness: at most 2 at once, and Crawl-delay 0.1 s between page requests (from the log)
      assert.ok(site.maxInFlight <= 2, `at most 2 requests at once (saw ${site.maxInFlight})`);
      const times = site.log
        .filter((l) => pagePaths.includes(l.path))
        .map((l) => l.at)
        .sort((a, b) => a - b);
      const gaps = times.slice(1).map((t, i) => t - times[i]!);
      // each request gets its own slot, 100 ms after the previous slot; a slot's request may leave
      // late on a loaded machine (so two arrivals can be close), but never early: over the whole
      // crawl the requests are spread at least (n − 1) × 100 ms
      const span = times.at(-1)! - times[0]!;
      assert.ok(
        span >= (times.length - 1) * 100 - 50,
        `span ${span.toFixed(0)} ms for ${times.length} requests`,
      );
      const sorted = [...gaps].sort((a, b) => a - b);
      assert.ok(
        sorted[Math.floor(sorted.length / 2)]! >= 90,
        `median gap ${sorted[Math.floor(sorted.length / 2)]!.toFixed(1)} ms`,
      );

      // findings
      const exp = await r.t.app.inject({
        method: 'GET',
        url: `/api/v1/batches/${id}/export?format=json`,
        headers: r.user.auth,
      });
      assert.equal(exp.statusCode, 200);
      const json = exp.json() as {
        findings: { id: string; pages: { url: string; detail?: string }[] }[];
        summary: { bands: Record<string, number> };
      };
      const f = (fid: string) => json.findings.find((x) => x.id === fid)!.pages;
      const u = (p: string) => `${site.origin}${p}`;
      assert.deepEqual(
        f('duplicate_titles')
          .map((p) => p.url)
          .sort(),
        [u('/p/8'), u('/p/9')].sort(),
      );
      // /p/7's link to a missing page, and the home's to /file.pdf (not a page: checked at the end, 404)
      assert.deepEqual(
        f('broken_links').map((p) => p.url),
        [u('/'), u('/p/7')],
      );
      assert.equal(f('broken_links')[0]!.detail, `${u('/file.pdf')} (404)`);
      assert.deepEqual(
        f('redirected_links').map((p) => p.url),
        [u('/p/5')],
      );
      assert.ok(
        f('orphans').some((p) => p.url === u('/orphan')),
        'the orphan',
      );
      assert.ok(!f('orphans').some((p) => p.url === u('/p/1')), 'a linked page is no orphan');
      assert.ok(f('not_in_sitemap').some((p) => p.url === u('/p/140')));
      assert.deepEqual(
        f('sitemap_noindex').map((p) => p.url),
        [u('/noindex-page')],
      );
      assert.deepEqual(
        f('sitemap_redirected').map((p) => p.url),
        [u('/moved')],
      );
      assert.deepEqual(
        f('canonical_not_200').map((p) => p.url),
        [u('/p/11')],
      );
      assert.deepEqual(
        f('hreflang_no_return').map((p) => p.url),
        [u('/en')],
      );
      const sum = Object.values(json.summary.bands).reduce((a, b) => a + b, 0);
      assert.equal(sum, site.expected.audited.length);
      assert.ok((done['summary'] as { histogram: number[] }).histogram.reduce((a, b) => a + b, 0) === sum);

      // CSV parses back to the same rows
      const csv = await r.t.app.inject({
        method: 'GET',
        url: `/api/v1/batches/${id}/export?format=csv`,
        headers: r.user.auth,
      });
      assert.match(String(csv.headers['content-type']), /^text\/csv/);
      const rows = parseCsv(csv.body);
      assert.deepEqual(
        rows
          .filter((x) => x['state'] === 'done')
          .map((x) => x['url'])
          .sort(),
        [...site.expected.audited].sort(),
      );
    });

    test('max_pages stops the crawl; cancel stops a batch; delete removes it (and its reports with reports=1)', async () => {
      // the capped crawl on a site of its own, twice the cap (31 pages) and without a
      // Crawl-delay: on the big site its end checked the ~140 pages it did not crawl one at a
      // time, 100 ms apart (docs/sites.md "Links and resources checked"), 14 s of nothing this
      // test looks at
      const smallSite = await startFixtureSite({ pages: 20, crawlDelay: null, plain: true });
      let id: number;
      try {
        const small = await r.t.request({
          method: 'POST',
          url: '/api/v1/batches',
          headers: { ...r.user.auth, 'content-type': 'application/json' },
          payload: { url: `${smallSite.origin}/`, mode: 'crawl', max_pages: 15 },
        });
        id = (small.json() as Json).data['id'] as number;
        const done = await waitDone(r, id);
        const p = done['progress'] as { discovered: number; audited: number };
        assert.ok(smallSite.expected.audited.length > 2 * 15, 'the site is larger than the cap');
        assert.equal(p.discovered, 15);
        assert.ok(p.audited <= 15);
      } finally {
        await smallSite.close();
      }

      const big = await r.t.request({
        method: 'POST',
        url: '/api/v1/batches',
        headers: { ...r.user.auth, 'content-type': 'application/json' },
        payload: { url: `${site.origin}/`, mode: 'crawl', max_pages: 1000 },
      });
      const bigId = (big.json() as Json).data['id'] as number;
      await waitFor(
        async () => {
          const b = await r.t.services.batches.get(r.user.id, bigId);
          return b.progress.audited >= 3 ? b : null;
        },
        'a few pages audited',
        60_000,
      );
      const cancel = await r.t.request({
        method: 'POST',
        url: `/api/v1/batches/${bigId}/cancel`,
        headers: r.user.auth,
      });
      assert.equal(cancel.statusCode, 200);
      assert.equal((cancel.json() as Json).data['status'], 'cancelled');
      const after = await r.t.services.batches.get(r.user.id, bigId);
      assert.ok(after.progress.audited < 100, 'stopped early');
      // pages in flight end (their jobs finish on whichever engine), nothing more is audited
      const later = await waitFor(
        async () => {
          const b = await r.t.services.batches.get(r.user.id, bigId);
          return b.progress.remaining === 0 ? b : null;
        },
        'the pages in flight ended',
        60_000,
      );
      assert.ok(
        later !== null && later.progress.audited <= after.progress.audited + 2,
        'at most the 2 in flight were added',
      );

      const reportsBefore = (await r.t.services.batches.reports(r.user.id, id, { page: 1, perPage: 100 }))
        .total;
      assert.ok(reportsBefore > 0);
      const del = await r.t.request({
        method: 'DELETE',
        url: `/api/v1/batches/${id}?reports=1`,
        headers: r.user.auth,
      });
      assert.equal(del.statusCode, 200);
      assert.equal((del.json() as { reports_deleted: number }).reports_deleted, reportsBefore);
      const gone = await r.t.request({ method: 'GET', url: `/api/v1/batches/${id}`, headers: r.user.auth });
      assert.equal(gone.statusCode, 404);
    });

    test('validation: mode, max_pages over the limit, list without urls; another user sees 404', async () => {
      const post = (payload: object) =>
        r.t.request({
          method: 'POST',
          url: '/api/v1/batches',
          headers: { ...r.user.auth, 'content-type': 'application/json' },
          payload,
        });
      const badMode = await post({ url: site.origin, mode: 'spider' });
      assert.equal(badMode.statusCode, 422);
      assert.match(badMode.body, /mode/);
      const tooMany = await post({ url: site.origin, mode: 'crawl', max_pages: 10_001 });
      assert.equal(tooMany.statusCode, 422);
      assert.match(tooMany.body, /max_pages/);
      const noUrls = await post({ url: site.origin, mode: 'list' });
      assert.equal(noUrls.statusCode, 422);
      const list = await post({
        url: site.origin,
        mode: 'list',
        urls: [`${site.origin}/p/1`, `${site.origin}/private/x`],
      });
      assert.equal(list.statusCode, 202);
      const id = (list.json() as Json).data['id'] as number;
      const other = await buildUser(r.t.services);
      const res = await r.t.request({ method: 'GET', url: `/api/v1/batches/${id}`, headers: other.auth });
      assert.equal(res.statusCode, 404);
      const done = await waitDone(r, id);
      // the disallowed URL is listed (skipped), never requested
      assert.deepEqual(done['progress'], { discovered: 2, audited: 1, failed: 1, remaining: 0 });
    });

    test("a batch's audited pages count in the audit metrics, as the API's audits do", async () => {
      // the registry is process-wide and this file's tests run one at a time: compare totals
      const total = async () => (await audits.get()).values.reduce((n, v) => n + v.value, 0);
      const failed = async () =>
        (await audits.get()).values.find((v) => v.labels.result === 'failed')?.value ?? 0;
      const [before, failedBefore] = [await total(), await failed()];
      const res = await r.t.request({
        method: 'POST',
        url: '/api/v1/batches',
        headers: { ...r.user.auth, 'content-type': 'application/json' },
        payload: { url: site.origin, mode: 'list', urls: [`${site.origin}/p/2`, `${site.origin}/p/3`] },
      });
      assert.equal(res.statusCode, 202, res.body);
      const done = await waitDone(r, (res.json() as Json).data['id'] as number);
      assert.deepEqual(done['progress'], { discovered: 2, audited: 2, failed: 0, remaining: 0 });
      assert.equal((await total()) - before, 2);
      assert.equal((await failed()) - failedBefore, 0);
    });
  });
}
