// Crawls that tell the truth (docs/sites.md): a site whose template points every page's
// canonical at the home page is audited page by page (canonicalised, never skipped), with the
// canonical_template finding beside the duplicate titles and the broken link; a batch that found
// nothing (start page unreachable, unresolvable or answering 404, robots.txt disallowing every
// page, every page failing) ends `failed` with why, in the API and at the top of its page; and
// the webhooks: a batch's pages send batch.page.completed (opt-in) and no report.*, a batch
// sends batch.completed, batch.failed or batch.cancelled. Real fixture sites on 127.0.0.1, the
// real job engine and a real receiver, on SQLite and PostgreSQL.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { describeEachDialect, type TestApp } from '../helpers/app.js';
import { batchEnded, postBatch, startBatchApp, type BatchApp } from '../helpers/batch-app.js';
import { Browser } from '../helpers/browser.js';
import { parseCsv } from '../helpers/csv.js';
import { buildUser, type TestUser } from '../helpers/factories.js';
import { startFixtureServer, type FixtureServer, closedPort } from '../helpers/fixture-server.js';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.js';
import { waitFor } from '../helpers/queues.js';
import type { WebhookEvent } from '../../src/contract/webhooks/events.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

const SUBPAGES = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];

/** Every page's canonical is the home page (the template bug); /a and /b share a title; home links to a 404. */
async function templateSite(): Promise<FixtureServer> {
  const s = await startFixtureServer({
    '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' },
  });
  const page = (title: string, body: string) =>
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title><link rel="canonical" href="${s.origin}/"></head><body><h1>${title}</h1>${body}</body></html>`;
  const links = SUBPAGES.map((p) => `<a href="/${p}">${p}</a>`).join(' ');
  s.route('/', { body: page('Home', `${links} <a href="/missing">Gone</a>`) });
  for (const p of SUBPAGES)
    s.route(`/${p}`, {
      body: page(p === 'a' || p === 'b' ? 'Same title' : `Page ${p}`, '<a href="/">Home</a>'),
    });
  return s;
}

interface Delivered {
  type: string;
  data: Record<string, unknown> & { batch: { id: number; status?: string; error?: string } };
}

describeEachDialect('batches that tell the truth', (dialect) => {
  let app: BatchApp;
  let t: TestApp;
  let user: TestUser;
  let rx: WebhookReceiver;
  let site: FixtureServer;
  let validate: (event: string, body: unknown) => void;

  before(async () => {
    app = await startBatchApp(dialect, { pollMs: 50 });
    t = app.t;
    user = await buildUser(t.services);
    rx = await startWebhookReceiver();
    site = await templateSite();
    const doc = (await t.app.inject({ url: '/api/v1/openapi.json' })).json() as {
      webhooks: Record<string, { post: { requestBody: { content: Record<string, { schema: object }> } } }>;
    };
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats.default(ajv);
    validate = (event, body) => {
      const check = ajv.compile(doc.webhooks[event]!.post.requestBody.content['application/json']!.schema);
      assert.ok(check(body), `${event}: ${ajv.errorsText(check.errors)}`);
    };
  });
  after(async () => {
    await app?.close();
    await rx?.close();
    await site?.close();
  });

  /** A webhook on the receiver; the receiver verifies each request with the newest one's secret. */
  const hook = async (path: string, events: WebhookEvent[]) => {
    const { webhook, secret } = await t.services.webhooks.create(user.id, {
      url: `${rx.origin}${path}`,
      events,
    });
    rx.secret = secret;
    return webhook;
  };
  /** The bodies the receiver got on `path`, once `n` have arrived. */
  const received = async (path: string, n: number): Promise<Delivered[]> => {
    await waitFor(
      () => rx.received.filter((r) => r.path === path).length >= n || null,
      `${n} on ${path}`,
      30_000,
    );
    return rx.received.filter((r) => r.path === path).map((r) => JSON.parse(r.body) as Delivered);
  };
  const crawl = (payload: Record<string, unknown>) => postBatch(t, user.auth, payload);

  test('a canonical-template site: every page audited and canonicalised, canonical_template, duplicate titles and the broken link; batch.page.completed per page, no report.*', async () => {
    const reportsHook = await hook('/reports', ['report.created', 'report.completed', 'report.failed']);
    const pagesHook = await hook('/pages', ['batch.page.completed', 'batch.completed']);
    const id = await crawl({ url: `${site.origin}/`, mode: 'crawl' });
    const done = await batchEnded(t, user.id, id);
    assert.equal(done.status, 'done');
    assert.equal(done.error, null);
    const home = `${site.origin}/`;
    const subpages = SUBPAGES.map((p) => `${site.origin}/${p}`);

    // every page audited: one report each, none skipped as a duplicate
    assert.deepEqual(done.progress, { discovered: 9, audited: 8, failed: 1, skipped: 0, remaining: 0 });
    const reports = await t.services.batches.reports(user.id, id, { page: 1, perPage: 100 });
    assert.deepEqual(reports.items.map((r) => r.url).sort(), [home, ...subpages].sort());

    const exp = await t.request({
      method: 'GET',
      url: `/api/v1/batches/${id}/export?format=json`,
      headers: user.auth,
    });
    assert.equal(exp.statusCode, 200);
    const json = exp.json() as {
      findings: { id: string; priority: string; count: number; pages: { url: string; detail?: string }[] }[];
      pages: {
        url: string;
        state: string;
        canonical: string | null;
        error: string | null;
        report_id: number | null;
      }[];
    };
    // the pages as found (their issue states across the project's crawls aside: issue-states.test.ts)
    const finding = (fid: string) => {
      const f = json.findings.find((x) => x.id === fid)!;
      return {
        ...f,
        pages: f.pages.map(({ url, detail }) => (detail === undefined ? { url } : { url, detail })),
      };
    };
    assert.equal(finding('canonical_template').priority, 'high');
    assert.deepEqual(
      finding('canonical_template').pages,
      subpages.map((url) => ({ url, detail: `canonicalised to ${home}` })),
    );
    assert.deepEqual(
      finding('duplicate_titles')
        .pages.map((p) => p.url)
        .sort(),
      subpages.slice(0, 2),
    );
    assert.deepEqual(finding('broken_links').pages, [{ url: home, detail: `${site.origin}/missing (404)` }]);
    for (const p of json.pages.filter((x) => x.state === 'done')) {
      assert.equal(p.canonical, p.url === home ? null : home, p.url);
      assert.equal(p.error, null, p.url);
    }
    const csv = parseCsv(
      (await t.request({ method: 'GET', url: `/api/v1/batches/${id}/export?format=csv`, headers: user.auth }))
        .body,
    );
    assert.equal(csv.find((r) => r['url'] === `${site.origin}/c`)?.['canonical'], home);

    // the dashboard's pages table says so
    const browser = new Browser(t.app);
    await browser.login(user.key);
    const page = await browser.get(`/dashboard/batches/${id}?per_page=25`);
    assert.equal(page.statusCode, 200);
    assert.equal(
      page.body.split(`canonicalised to ${home}`).length - 1 >= 7,
      true,
      'each page canonicalised',
    );
    assert.match(page.body, /id="finding-canonical_template"/);
    assert.ok(!page.body.includes('batch-error'), 'a done batch shows no error');

    // webhooks: one batch.page.completed per audited page and batch.completed; no report.*
    const bodies = await received('/pages', 9);
    await waitFor(
      async () => {
        const log = await t.services.webhooks.deliveries(user.id, pagesHook.id, { page: 1, perPage: 100 });
        return log.items.length === 9 && log.items.every((d) => d.status === 'delivered') ? log : null;
      },
      'every delivery delivered',
      30_000,
    );
    const perPage = bodies.filter((b) => b.type === 'batch.page.completed');
    assert.equal(perPage.length, 8);
    const reportOf = new Map(json.pages.map((p) => [p.url, p.report_id]));
    for (const b of perPage) {
      validate('batch.page.completed', b);
      assert.equal(b.data.batch.id, id);
      const report = b.data['report'] as { id: number; url: string };
      assert.equal(report.id, reportOf.get(b.data['url'] as string));
    }
    assert.deepEqual(perPage.map((b) => b.data['url']).sort(), [home, ...subpages].sort());
    const completed = bodies.filter((b) => b.type === 'batch.completed');
    assert.equal(completed.length, 1);
    validate('batch.completed', completed[0]);
    assert.ok(
      rx.received.filter((r) => r.path === '/pages').every((r) => r.verified === true),
      'signed (Standard Webhooks)',
    );
    const none = await t.services.webhooks.deliveries(user.id, reportsHook.id, { page: 1, perPage: 10 });
    assert.equal(none.total, 0, 'no report.* event from a batch page');
    assert.equal(rx.received.filter((r) => r.path === '/reports').length, 0);
    await t.services.webhooks.delete(user.id, reportsHook.id);
    await t.services.webhooks.delete(user.id, pagesHook.id);
  });

  test('a batch that found nothing is failed with why (API, dashboard in red, batch.failed); cancel sends batch.cancelled', async () => {
    const endings = await hook('/endings', ['batch.completed', 'batch.failed', 'batch.cancelled']);
    const empty = await startFixtureServer({
      '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' },
    });
    const walled = await startFixtureServer({
      '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nDisallow: /\n' },
      '/': { body: '<!doctype html><title>Home</title>' },
    });
    const slow: FixtureSite = await startFixtureSite({
      pages: 40,
      crawlDelay: null,
      latencyMs: 300,
      plain: true,
    });
    try {
      const port = await closedPort();
      const cases: [Record<string, unknown>, RegExp][] = [
        [
          { url: `http://127.0.0.1:${port}/`, mode: 'crawl' },
          /^The start page could not be fetched: .*refused/i,
        ],
        [
          { url: 'http://no-such-host.invalid/', mode: 'crawl' },
          /^The start page could not be fetched: .*could not be resolved/,
        ],
        [
          { url: `${empty.origin}/`, mode: 'crawl' },
          /^The start page could not be fetched: it answered HTTP 404\.$/,
        ],
        [{ url: `${walled.origin}/`, mode: 'crawl' }, /^robots\.txt disallows every page of the site\.$/],
        [
          { url: `${empty.origin}/`, mode: 'list', urls: [`${empty.origin}/x`, `${empty.origin}/y`] },
          new RegExp(`^No page could be audited: ${empty.origin}/x: The page answered HTTP 404\\.$`),
        ],
      ];
      const failedIds: number[] = [];
      for (const [payload, error] of cases) {
        const id = await crawl(payload);
        await batchEnded(t, user.id, id);
        const res = await t.request({ method: 'GET', url: `/api/v1/batches/${id}`, headers: user.auth });
        const b = (res.json() as { data: { status: string; error: string | null } }).data;
        assert.equal(b.status, 'failed', `${JSON.stringify(payload)}: ${b.error}`);
        assert.match(b.error ?? '', error);
        failedIds.push(id);
      }
      assert.ok(!walled.requests.includes('/'), 'robots.txt obeyed: the start page was never requested');

      // the dashboard: the error at the top, in red (the error alert), and no "nothing found"
      const browser = new Browser(t.app);
      await browser.login(user.key);
      const page = await browser.get(`/dashboard/batches/${failedIds[0]}`);
      assert.equal(page.statusCode, 200);
      const alert =
        /<p class="alert alert--error batch-error" role="alert"><strong>The batch failed\.<\/strong> The start page could not be fetched: [^<]*refused[^<]*<\/p>/i.exec(
          page.body,
        );
      assert.ok(alert, 'the error alert');
      assert.ok(alert.index < page.body.indexOf('id="progress-title"'), 'above the progress');
      assert.match(page.body, /batch-status--failed">Failed</);
      assert.ok(!page.body.includes('Nothing found across the pages'));

      // cancelled stays cancelled, whatever was audited
      const cancelled = await crawl({ url: `${slow.origin}/`, mode: 'crawl', max_pages: 40 });
      const res = await t.request({
        method: 'POST',
        url: `/api/v1/batches/${cancelled}/cancel`,
        headers: user.auth,
      });
      assert.equal((res.json() as { data: { status: string } }).data.status, 'cancelled');
      await waitFor(
        async () =>
          (await t.services.batches.get(user.id, cancelled)).progress.remaining === 0 ? true : null,
        'the cancelled batch settled',
        30_000,
      );
      assert.equal((await t.services.batches.get(user.id, cancelled)).status, 'cancelled');

      const bodies = await received('/endings', cases.length + 1);
      assert.ok(
        rx.received.filter((r) => r.path === '/endings').every((r) => r.verified === true),
        'signed',
      );
      for (const b of bodies) validate(b.type, b);
      const failedEvents = bodies.filter((b) => b.type === 'batch.failed');
      assert.deepEqual(
        failedEvents.map((b) => b.data.batch.id).sort((x, y) => x - y),
        failedIds,
      );
      for (const b of failedEvents) {
        const api = await t.services.batches.get(user.id, b.data.batch.id);
        assert.equal(b.data.batch.error, api.error);
        assert.equal(b.data.batch.status, 'failed');
      }
      assert.deepEqual(
        bodies.filter((b) => b.type === 'batch.cancelled').map((b) => b.data.batch.id),
        [cancelled],
      );
      assert.equal(bodies.filter((b) => b.type === 'batch.completed').length, 0);
      await t.services.webhooks.delete(user.id, endings.id);
    } finally {
      await empty.close();
      await walled.close();
      await slow.close();
    }
  });
});
