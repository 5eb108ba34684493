// One report per page (docs/sites.md, "One report per page"): a project's page has one report,
// and each crawl that audits it adds a run (source `batch`, with the batch's id) instead of a
// second report. Two crawls of the generated fixture site through the API, worked by the real job
// engine (the jobs table on SQLite and PostgreSQL, and BullMQ on Redis), a webhook receiver on
// 127.0.0.1; then a single audit, a password report and a private report of pages that a crawl
// then audits: they are the reports it updates, their privacy and password untouched.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { getOrgCounters } from '../../src/store/organizations.repository.js';
import { Browser } from '../helpers/browser.js';
import { postgresDialect } from '../helpers/db.js';
import { engineSetups, startBatchApp, type BatchApp, type EngineSetup } from '../helpers/batch-app.js';
import { buildUser, type TestUser } from '../helpers/factories.js';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.js';
import { waitFor } from '../helpers/queues.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

const setups = engineSetups(postgresDialect);

type Running = BatchApp;

const start = (s: EngineSetup): Promise<Running> =>
  startBatchApp(s.dialect, { redis: s.redis, config: { crawlDelayMs: 0, crawlConcurrency: 2 } });

interface ApiBatch {
  id: number;
  status: string;
  progress: { audited: number };
  reports: { created: number; updated: number };
}
interface ApiRun {
  id: number;
  current: boolean;
  source: string | null;
  batch_id: number | null;
}
interface ApiReport {
  id: number;
  url: string;
  privacy: number;
  has_password: boolean;
}

for (const s of setups) {
  describe(`one report per page [${s.name}]`, { skip: s.skip }, () => {
    let r: Running;
    let site: FixtureSite;
    let rx: WebhookReceiver;
    before(async () => {
      r = await start(s);
      site = await startFixtureSite({ pages: 10, crawlDelay: null });
      rx = await startWebhookReceiver();
    });
    after(async () => {
      await r?.close();
      await site?.close();
      await rx?.close();
    });

    const get = async <T>(user: TestUser, url: string): Promise<T> => {
      const res = await r.t.request({ method: 'GET', url, headers: user.auth });
      assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
      return res.json() as T;
    };
    const post = async (user: TestUser, url: string, payload: Record<string, unknown>) =>
      r.t.request({
        method: 'POST',
        url,
        headers: { ...user.auth, 'content-type': 'application/json' },
        payload,
      });
    const crawl = async (user: TestUser, payload: Record<string, unknown>): Promise<ApiBatch> => {
      const res = await post(user, '/api/v1/batches', payload);
      assert.equal(res.statusCode, 202, res.body);
      const id = (res.json() as { data: ApiBatch }).data.id;
      const done = await waitFor(
        async () => {
          await new Promise((ok) => setTimeout(ok, 200));
          const b = (await get<{ data: ApiBatch }>(user, `/api/v1/batches/${id}`)).data;
          return b.status === 'queued' || b.status === 'running' ? null : b;
        },
        `batch ${id} to end`,
        120_000,
      );
      assert.equal(done!.status, 'done');
      return done!;
    };
    /** every report of the batch (GET /reports?batch=), by URL */
    const batchReports = async (user: TestUser, id: number): Promise<Map<string, number>> => {
      const list = await get<{ data: ApiReport[]; meta: { total: number } }>(
        user,
        `/api/v1/reports?batch=${id}&per_page=100`,
      );
      assert.equal(list.meta.total, list.data.length);
      return new Map(list.data.map((x) => [x.url, x.id]));
    };
    const runs = async (user: TestUser, id: number) =>
      (await get<{ data: ApiRun[] }>(user, `/api/v1/reports/${id}/runs?per_page=100`)).data;
    /** the user's report counters agree with the reports stored */
    const countersHold = async (user: TestUser) => {
      const db = r.t.database.db;
      const counted = await sql<{ result: string; n: number | string }>`
        SELECT result, COUNT(*) AS n FROM reports WHERE org_id = ${user.id} GROUP BY result`.execute(db);
      const by = Object.fromEntries(counted.rows.map((x) => [x.result, Number(x.n)]));
      const c = await getOrgCounters(db, user.id);
      assert.deepEqual(
        { reports: c.reports, good: c.good, decent: c.decent, bad: c.bad },
        {
          reports: (by['good'] ?? 0) + (by['decent'] ?? 0) + (by['bad'] ?? 0),
          good: by['good'] ?? 0,
          decent: by['decent'] ?? 0,
          bad: by['bad'] ?? 0,
        },
      );
      return c;
    };

    test('two crawls: one report per page, each with a run of each crawl; created then updated; no report.* event', async () => {
      const user = await buildUser(r.t.services);
      const { webhook: reportsHook } = await r.t.services.webhooks.create(user.id, {
        url: `${rx.origin}/reports`,
        events: ['report.created', 'report.completed', 'report.regressed', 'report.failed'],
      });
      await r.t.services.webhooks.create(user.id, {
        url: `${rx.origin}/pages`,
        events: ['batch.page.completed'],
      });
      const body = { url: `${site.origin}/`, mode: 'crawl', max_pages: 1000, max_depth: 4 };
      const pages = site.expected.audited.length;

      const first = await crawl(user, body);
      assert.equal(first.progress.audited, pages);
      assert.deepEqual(first.reports, { created: pages, updated: 0 });
      const second = await crawl(user, body);
      assert.equal(second.progress.audited, pages);
      assert.deepEqual(second.reports, { created: 0, updated: pages });
      // each page a crawl stored, and nothing else, counted as a crawl's write (docs/api.md,
      // "Kept answers": what a kept list answer may trail by a second)
      const crawlWrites = await sql<{ n: number | string }>`
        SELECT crawl_writes AS n FROM organizations WHERE id = ${user.id}`.execute(r.t.database.db);
      assert.equal(Number(crawlWrites.rows[0]!.n), 2 * pages);

      // one report per page: the same reports, listed by each batch
      const a = await batchReports(user, first.id);
      const b = await batchReports(user, second.id);
      assert.deepEqual([...a.keys()].sort(), [...site.expected.audited].sort());
      assert.deepEqual(b, a);
      const all = await get<{ meta: { total: number } }>(user, '/api/v1/reports?per_page=10');
      assert.equal(all.meta.total, pages, 'report count equals page count');
      const project = await get<{ data: { reports_count: number } }>(user, '/api/v1/projects/site.test');
      assert.equal(project.data.reports_count, pages);
      assert.equal((await countersHold(user)).reports, pages);

      // each report: two runs, one per crawl, source batch with the batch's id
      for (const [url, id] of a) {
        const list = await runs(user, id);
        assert.deepEqual(
          list.map((x) => [x.id, x.current, x.source, x.batch_id]),
          [
            [2, true, 'batch', second.id],
            [1, false, 'batch', first.id],
          ],
          url,
        );
      }
      const one = [...a.values()][0]!;
      const kept = await get<{ data: ApiRun & { results: unknown } }>(user, `/api/v1/reports/${one}/runs/1`);
      assert.equal(kept.data.batch_id, first.id);
      assert.ok(kept.data.results !== null);

      // the batch's dashboard page counts them too
      const browser = new Browser(r.t.app);
      await browser.login(user.key);
      const html = (await browser.get(`/dashboard/batches/${second.id}`)).body;
      assert.match(html, new RegExp(`data-count="reports_created">0<`));
      assert.match(html, new RegExp(`data-count="reports_updated">${pages}<`));

      // a page's event per audited page of both crawls, and no report.* event
      await waitFor(
        () => rx.received.filter((x) => x.path === '/pages').length >= 2 * pages || null,
        'batch.page.completed of both crawls',
        60_000,
      );
      const none = await r.t.services.webhooks.deliveries(user.id, reportsHook.id, { page: 1, perPage: 10 });
      assert.equal(none.total, 0, 'no report.* delivery from batch pages');
      assert.equal(rx.received.filter((x) => x.path === '/reports').length, 0);
    });

    test('two crawls of one project at once: still one report per page, with a run of each crawl', async () => {
      const user = await buildUser(r.t.services);
      const body = { url: `${site.origin}/`, mode: 'crawl', max_pages: 1000, max_depth: 4 };
      const pages = site.expected.audited.length;
      // both started before either has audited a page: their page jobs interleave
      const [one, two] = await Promise.all([crawl(user, body), crawl(user, body)]);
      assert.equal(one.progress.audited, pages);
      assert.equal(two.progress.audited, pages);
      // every page made once, by whichever crawl came first, and updated by the other
      assert.equal(one.reports.created + two.reports.created, pages);
      assert.equal(one.reports.updated + two.reports.updated, pages);
      const a = await batchReports(user, one.id);
      assert.deepEqual(await batchReports(user, two.id), a);
      assert.deepEqual([...a.keys()].sort(), [...site.expected.audited].sort());
      const all = await get<{ meta: { total: number } }>(user, '/api/v1/reports?per_page=10');
      assert.equal(all.meta.total, pages, 'report count equals page count');
      assert.equal((await countersHold(user)).reports, pages);
      for (const [url, id] of a) {
        const list = await runs(user, id);
        assert.deepEqual(
          list.map((x) => x.batch_id).sort(),
          [one.id, two.id].sort(),
          `${url}: one run of each crawl`,
        );
      }
    });

    test("a single audit's report is the one the next crawl updates; a crawl keeps privacy and password", async () => {
      const user = await buildUser(r.t.services);
      const u = (path: string) => `${site.origin}${path}`;
      const single = async (payload: Record<string, unknown>): Promise<ApiReport> => {
        const res = await post(user, '/api/v1/reports', payload);
        assert.equal(res.statusCode, 201, res.body);
        return (res.json() as { data: ApiReport }).data;
      };
      // a tracking parameter does not make another page
      const audited = await single({ url: u('/p/1?utm_source=news') });
      const locked = await single({ url: u('/p/2'), privacy: 2, password: 'open sesame' });
      const hidden = await single({ url: u('/p/3'), privacy: 1 });

      const batch = await crawl(user, {
        url: u('/p/1'),
        mode: 'list',
        urls: [u('/p/1'), u('/p/2'), u('/p/3'), u('/p/4')],
        privacy: 1,
      });
      assert.deepEqual(batch.reports, { created: 1, updated: 3 });
      const listed = await batchReports(user, batch.id);
      assert.equal(listed.get(u('/p/1?utm_source=news')), audited.id, 'the single audit is updated');
      assert.equal(listed.get(u('/p/2')), locked.id);
      assert.equal(listed.get(u('/p/3')), hidden.id);
      const created = listed.get(u('/p/4'))!;
      assert.ok(![audited.id, locked.id, hidden.id].includes(created));

      const report = async (id: number) =>
        (await get<{ data: ApiReport }>(user, `/api/v1/reports/${id}`)).data;
      // a crawl never changes privacy or password; a new page's report takes the batch's privacy
      assert.deepEqual(
        [
          await report(audited.id),
          await report(locked.id),
          await report(hidden.id),
          await report(created),
        ].map((x) => [x.privacy, x.has_password]),
        [
          [0, false],
          [2, true],
          [1, false],
          [1, false],
        ],
      );
      assert.equal(await r.t.services.reports.verifyPassword(locked.id, 'open sesame'), true);
      // the password page still asks for it (the crawl did not publish it)
      const anonymous = await r.t.request({ method: 'GET', url: `/reports/${locked.id}` });
      assert.equal(anonymous.statusCode, 200);
      assert.match(anonymous.body, /id="report-password"/);
      // and the private one is not shown to others
      const other = await r.t.request({ method: 'GET', url: `/reports/${hidden.id}` });
      assert.equal(other.statusCode, 404);

      for (const id of [audited.id, locked.id, hidden.id]) {
        assert.deepEqual(
          (await runs(user, id)).map((x) => [x.id, x.source, x.batch_id]),
          [
            [2, 'batch', batch.id],
            [1, null, null],
          ],
        );
      }
      assert.deepEqual(
        (await runs(user, created)).map((x) => [x.id, x.source, x.batch_id]),
        [[1, 'batch', batch.id]],
      );
      assert.equal((await countersHold(user)).reports, 4);
    });
  });
}
