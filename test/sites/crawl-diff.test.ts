// Crawl compared with crawl (docs/sites.md, "Comparing crawls"): two crawls of a fixture site on
// 127.0.0.1 that changes in between (a page removed, one added, a title changed, a link broken,
// a page made noindex). The diff stored when the second ended names exactly those changes; the
// first crawl's diff has `from: null`; `?from=` computes the same diff and refuses a batch that
// is not the user's or not of the project; batch.completed carries the summary and
// batch.regressed arrives signed (standardwebhooks) at a loopback receiver with its reasons.
// Custom extraction: two crawls with a css extractor where one page's value changes and another's
// stays list exactly the changed page with its value before and after (an extractor of one crawl
// only is not compared).
// SQLite and PostgreSQL on the jobs table, and PostgreSQL with BullMQ on Redis.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { type TestApp } from '../helpers/app.js';
import { postgresDialect } from '../helpers/db.js';
import { engineSetups, startBatchApp, type BatchApp, type EngineSetup } from '../helpers/batch-app.js';
import { buildUser, type TestUser } from '../helpers/factories.js';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.js';
import { waitFor } from '../helpers/queues.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

const setups = engineSetups(postgresDialect);

type Running = BatchApp;

const start = (s: EngineSetup): Promise<Running> =>
  startBatchApp(s.dialect, { redis: s.redis, config: { crawlDelayMs: 0, crawlConcurrency: 2 } });

const page = (title: string, body: string, head = '') =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${head}</head><body><h1>${title}</h1><p>${'Some words about this page of the fixture site. '.repeat(8)}</p>${body}</body></html>`;

/** The site of the first crawl: home links to /a, /b, /c and /d. */
function firstVersion(s: FixtureServer): void {
  s.route('/robots.txt', { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' });
  s.route('/', {
    body: page(
      'Home of the fixture',
      '<a href="/a">A</a> <a href="/b">B</a> <a href="/c">C</a> <a href="/d">D</a>',
    ),
  });
  s.route('/a', { body: page('Apples and pears', '<a href="/">Home</a>') });
  s.route('/b', { body: page('Bananas in bunches', '<a href="/">Home</a>') });
  s.route('/c', { body: page('Cherries on trees', '<a href="/">Home</a>') });
  s.route('/d', { body: page('Dates from palms', '<a href="/">Home</a>') });
}

/** The second: /d gone (no longer linked), /e new, /a retitled, /b links to a 404, /c noindex. */
function secondVersion(s: FixtureServer): void {
  s.route('/', {
    body: page(
      'Home of the fixture',
      '<a href="/a">A</a> <a href="/b">B</a> <a href="/c">C</a> <a href="/e">E</a>',
    ),
  });
  s.route('/a', { body: page('Apricots and figs', '<a href="/">Home</a>') });
  s.route('/b', { body: page('Bananas in bunches', '<a href="/">Home</a> <a href="/missing">Gone</a>') });
  s.route('/c', {
    body: page('Cherries on trees', '<a href="/">Home</a>', '<meta name="robots" content="noindex">'),
  });
  s.route('/d', { status: 404, body: 'gone' });
  s.route('/e', { body: page('Elderberries in June', '<a href="/">Home</a>') });
}

interface DiffJson {
  from: { id: number } | null;
  to: { id: number };
  summary: {
    pages: Record<string, number>;
    findings: Record<string, number>;
    site: { before: { score: number; band: string } | null; after: { score: number; band: string } | null };
    extracted: { names: string[]; changed: number };
  };
  regressed: boolean;
  reasons: { code: string; finding?: string; count?: number }[];
  pages: {
    added: { url: string; status: number | null }[];
    removed: { url: string }[];
    changed: {
      url: string;
      changes: string[];
      before: { title: string | null; noindex: boolean };
      after: { title: string | null; noindex: boolean };
      extracted: { name: string; before: unknown; after: unknown }[];
    }[];
  };
  findings: { id: string; state: string; pages: { url: string; detail?: string }[]; new_pages: unknown[] }[];
}

interface Delivered {
  type: string;
  data: {
    batch: { id: number };
    diff: { from: number | null; regressed: boolean; reasons: { code: string }[] };
  };
}

for (const s of setups) {
  describe(`crawl compared with crawl [${s.name}]`, { skip: s.skip }, () => {
    let r: Running;
    let t: TestApp;
    let user: TestUser;
    let site: FixtureServer;
    let rx: WebhookReceiver;

    before(async () => {
      r = await start(s);
      t = r.t;
      user = await buildUser(t.services);
      site = await startFixtureServer();
      rx = await startWebhookReceiver();
    });
    after(async () => {
      await r?.close();
      await site?.close();
      await rx?.close();
    });

    const crawl = async (url: string, who = user, extra: Record<string, unknown> = {}) => {
      const res = await t.request({
        method: 'POST',
        url: '/api/v1/batches',
        headers: { ...who.auth, 'content-type': 'application/json' },
        payload: { url, mode: 'crawl', ...extra },
      });
      assert.equal(res.statusCode, 202, res.body);
      const id = (res.json() as { data: { id: number } }).data.id;
      await waitFor(
        async () => {
          const b = await t.services.batches.get(who.id, id);
          return b.status === 'queued' || b.status === 'running' ? null : b;
        },
        `batch ${id} to end`,
        60_000,
      );
      return id;
    };
    const diff = async (id: number, query = '', who = user) => {
      const res = await t.request({
        method: 'GET',
        url: `/api/v1/batches/${id}/diff${query}`,
        headers: who.auth,
      });
      return res;
    };

    test('two crawls of a changing site: the diff names exactly the changes; batch.regressed arrives signed', async () => {
      const { secret } = await t.services.webhooks.create(user.id, {
        url: `${rx.origin}/hook`,
        events: ['batch.completed', 'batch.regressed'],
      });
      rx.secret = secret;
      const o = site.origin;
      firstVersion(site);
      const first = await crawl(`${o}/`);
      assert.equal((await t.services.batches.get(user.id, first)).status, 'done');
      const d1 = await diff(first);
      assert.equal(d1.statusCode, 200, d1.body);
      const firstDiff = (d1.json() as { data: DiffJson }).data;
      assert.equal(firstDiff.from, null, 'the first crawl has nothing to compare with');
      assert.equal(firstDiff.regressed, false);
      assert.deepEqual(firstDiff.pages, { added: [], removed: [], changed: [] });
      assert.ok(firstDiff.summary.site.after !== null, 'the site score of the first crawl');

      secondVersion(site);
      const second = await crawl(`${o}/`);
      assert.equal((await t.services.batches.get(user.id, second)).status, 'done');
      const d2 = await diff(second);
      assert.equal(d2.statusCode, 200, d2.body);
      const d = (d2.json() as { data: DiffJson }).data;
      assert.equal(d.from?.id, first);
      assert.equal(d.to.id, second);

      assert.deepEqual(
        d.pages.added.map((p) => [p.url, p.status]),
        [
          [`${o}/e`, 200],
          [`${o}/missing`, 404],
        ],
      );
      assert.deepEqual(
        d.pages.removed.map((p) => p.url),
        [`${o}/d`],
      );
      assert.deepEqual(
        d.pages.changed.map((c) => c.url),
        [`${o}/a`, `${o}/c`],
        JSON.stringify(d.pages.changed, null, 1),
      );
      const a = d.pages.changed[0]!;
      assert.ok(a.changes.includes('title'));
      assert.deepEqual([a.before.title, a.after.title], ['Apples and pears', 'Apricots and figs']);
      const c = d.pages.changed[1]!;
      assert.ok(c.changes.includes('noindex'));
      assert.deepEqual([c.before.noindex, c.after.noindex], [false, true]);
      assert.ok(!c.changes.includes('title'));

      const broken = d.findings.find((f) => f.id === 'broken_links')!;
      assert.equal(broken.state, 'new');
      assert.deepEqual(broken.pages, [{ url: `${o}/b`, detail: `${o}/missing (404)` }]);
      assert.deepEqual(
        d.findings.filter((f) => f.state !== 'persisting').map((f) => [f.id, f.state]),
        [['broken_links', 'new']],
        JSON.stringify(d.findings, null, 1),
      );

      assert.equal(d.summary.pages['added'], 2);
      assert.equal(d.summary.pages['removed'], 1);
      assert.equal(d.summary.pages['changed'], 2);
      assert.equal(d.summary.pages['newly_noindex'], 1);
      assert.equal(d.summary.findings['new'], 1);
      assert.equal(d.regressed, true);
      const codes = d.reasons.map((x) => x.code);
      assert.ok(codes.includes('high_priority_finding'), codes.join());
      assert.ok(codes.includes('pages_noindex'), codes.join());
      assert.equal(d.reasons.find((x) => x.code === 'high_priority_finding')!.finding, 'broken_links');

      // ?from= computes the same diff (the stored one is this very computation)
      const again = await diff(second, `?from=${first}`);
      assert.equal(again.statusCode, 200, again.body);
      assert.deepEqual((again.json() as { data: DiffJson }).data, d);
      // the pages' stored digests (batch_pages.digest) are what it reads; a batch audited before
      // the column has none, and its pages' facts are read instead: the same diff
      const digests = await sql<{ n: number | string }>`
        SELECT COUNT(*) AS n FROM batch_pages WHERE batch_id = ${first} AND state = 'done' AND digest IS NULL`.execute(
        t.database.db,
      );
      assert.equal(Number(digests.rows[0]!.n), 0, 'every audited page has its digest');
      await sql`UPDATE batch_pages SET digest = NULL WHERE batch_id IN (${first}, ${second})`.execute(
        t.database.db,
      );
      const fromFacts = await diff(second, `?from=${first}`);
      assert.deepEqual((fromFacts.json() as { data: DiffJson }).data, d, 'no digests: read from the facts');

      // the events: batch.completed for each crawl with its summary, batch.regressed for the second
      await waitFor(() => rx.received.length >= 3 || null, 'three deliveries', 30_000);
      await new Promise((res) => setTimeout(res, 300));
      const got = rx.received.map((x) => ({ verified: x.verified, body: JSON.parse(x.body) as Delivered }));
      assert.ok(
        got.every((x) => x.verified === true),
        'every delivery signed (standardwebhooks)',
      );
      const of = (type: string) => got.filter((x) => x.body.type === type).map((x) => x.body.data);
      assert.deepEqual(
        of('batch.completed').map((x) => [x.batch.id, x.diff.from, x.diff.regressed]),
        [
          [first, null, false],
          [second, first, true],
        ],
      );
      const regressed = of('batch.regressed');
      assert.equal(regressed.length, 1);
      assert.equal(regressed[0]!.batch.id, second);
      assert.deepEqual(
        regressed[0]!.diff.reasons.map((x) => x.code),
        d.reasons.map((x) => x.code),
      );
    });

    test('?from= must be an ended crawl of the same project and the user’s', async () => {
      const latest = (await t.services.batches.list(user.id, { page: 1, perPage: 1 })).items[0]!.id;
      const other = await buildUser(t.services);
      const foreign = await crawl(`${site.origin}/`, other);
      // another project: the same fixture under the name localhost is another host
      const otherProject = await crawl(`http://localhost:${site.port}/`);
      for (const [from, why] of [
        [foreign, /of yours/],
        [999999, /of yours/],
        [otherProject, /is a crawl of/],
      ] as const) {
        const res = await diff(latest, `?from=${from}`);
        assert.equal(res.statusCode, 422, res.body);
        const body = res.json() as { errors: Record<string, string[]> };
        assert.match(body.errors['from']![0]!, why);
      }
      for (const q of ['?from=abc', '?from=0', '?since=1']) {
        const res = await diff(latest, q);
        assert.equal(res.statusCode, 422, `${q}: ${res.body}`);
      }
      const missing = await diff(999999);
      assert.equal(missing.statusCode, 404);
    });

    test('custom extraction: exactly the page whose extracted value changed, with its value before and after', async () => {
      // a user of its own: the project's previous finished crawl is this test's first
      const shop = await buildUser(t.services);
      const fx = await startFixtureServer();
      try {
        const product = (name: string, price: string, more = '') =>
          page(name, `<a href="/">Home</a> <span class="price">${price}</span>${more}`);
        fx.route('/robots.txt', {
          headers: { 'content-type': 'text/plain' },
          body: 'User-agent: *\nAllow: /\n',
        });
        fx.route('/', { body: page('The shop of the fixture', '<a href="/p1">P1</a> <a href="/p2">P2</a>') });
        fx.route('/p1', {
          body: product('Product one of the shop', '€10.00', '<span class="sku">S-1</span>'),
        });
        fx.route('/p2', {
          body: product('Product two of the shop', '€20.00', '<span class="sku">S-2</span>'),
        });
        const first = await crawl(`${fx.origin}/`, shop, {
          extractors: [
            { name: 'price', css: '.price' },
            { name: 'sku', css: '.sku' },
          ],
        });
        assert.equal((await t.services.batches.get(shop.id, first)).status, 'done');
        // /p1's price changes; /p2's stays, its sku changes (an extractor the second crawl has not)
        fx.route('/p1', {
          body: product('Product one of the shop', '€12.00', '<span class="sku">S-1</span>'),
        });
        fx.route('/p2', {
          body: product('Product two of the shop', '€20.00', '<span class="sku">S-9</span>'),
        });
        const second = await crawl(`${fx.origin}/`, shop, {
          extractors: [
            { name: 'price', css: '.price' },
            { name: 'labels', css: '.label', all: true },
          ],
        });
        assert.equal((await t.services.batches.get(shop.id, second)).status, 'done');

        const res = await diff(second, '', shop);
        assert.equal(res.statusCode, 200, res.body);
        const d = (res.json() as { data: DiffJson }).data;
        assert.equal(d.from?.id, first, 'the stored diff, against the first crawl');
        assert.deepEqual(d.summary.extracted, { names: ['price'], changed: 1 });
        assert.deepEqual(
          d.pages.changed.map((c) => ({ url: c.url, changes: c.changes, extracted: c.extracted })),
          [
            {
              url: `${fx.origin}/p1`,
              changes: ['extracted'],
              extracted: [{ name: 'price', before: '€10.00', after: '€12.00' }],
            },
          ],
          JSON.stringify(d.pages.changed, null, 1),
        );
        assert.equal(d.summary.pages['changed'], 1);
        assert.deepEqual([d.pages.added, d.pages.removed], [[], []]);
        assert.equal(d.regressed, false, 'a changed value is no regression');

        // ?from= computes the same
        const again = await diff(second, `?from=${first}`, shop);
        assert.equal(again.statusCode, 200, again.body);
        assert.deepEqual((again.json() as { data: unknown }).data, d);
      } finally {
        await fx.close();
      }
    });
  });
}
