// Report and project services over every dialect, auditing pages of a fixture site on
// 127.0.0.1 with the real engine: store, fetch failures, privacy and passwords, re-audit and
// history, ownership, deletes, counters, and concurrent creates/deletes.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../../src/analyzer/index.js';
import { AppError } from '../../src/errors.js';
import { createServices } from '../../src/services/index.js';
import { type Services } from '../../src/services/types.js';
import { withTransaction } from '../../src/store/database.js';
import { countReports } from '../../src/store/reports-list.repository.js';
import { insertReport } from '../../src/store/reports.repository.js';
import { adjustOrgCounters, getOrgCounters, insertOrg } from '../../src/store/organizations.repository.js';
import { goodPage, html, startFixtureServer, type FixtureServer } from '../helpers/fixture-server.js';
import { dialects, openTestDb, type TestDb } from '../helpers/db.js';
import { testServicesConfig } from '../helpers/config.js';
import { embeddedQueue } from '../../src/jobs/index.js';

const config = testServicesConfig();

const MID =
  '<!doctype html><html lang="en"><head><title>A page about things</title>' +
  '<meta name="viewport" content="width=device-width"></head><body><h1>Hi</h1><p>Some text here.</p></body></html>';

async function rejects422(p: Promise<unknown>, field: string, pattern?: RegExp): Promise<AppError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof AppError, `expected an AppError, got ${String(err)}`);
    assert.equal(err.status, 422);
    assert.ok(err.fields?.[field]?.length, `expected errors under ${field}: ${JSON.stringify(err.fields)}`);
    if (pattern) assert.match(err.fields[field]![0]!, pattern);
    return err;
  }
  assert.fail('expected a 422');
}

async function rejects404(p: Promise<unknown>): Promise<void> {
  await assert.rejects(p, (err: unknown) => err instanceof AppError && err.status === 404);
}

let site: FixtureServer;
before(async () => {
  site = await startFixtureServer({
    '/good': html(goodPage('http://127.0.0.1')),
    '/mid': html(MID),
    '/text': { headers: { 'content-type': 'text/plain' }, body: 'not a page' },
  });
});
after(() => site?.close());

for (const dialect of dialects) {
  describe(`reports service [${dialect.name}]`, { skip: dialect.skip }, () => {
    let t: TestDb;
    let s: Services;
    let alice: number;
    let bob: number;

    before(async () => {
      t = await openTestDb(dialect);
      s = createServices({ queue: embeddedQueue(t.db), db: t.db, analyze, config });
      alice = (await insertOrg(t.db, 'alice', new Date().toISOString())).id;
      bob = (await insertOrg(t.db, 'bob', new Date().toISOString())).id;
    });
    after(() => t?.cleanup());

    async function assertCountersExact(userId: number) {
      const c = await getOrgCounters(t.db, userId);
      assert.equal(c.reports, await countReports(t.db, userId, {}));
      for (const r of ['good', 'decent', 'bad'] as const)
        assert.equal(c[r], await countReports(t.db, userId, { result: r }));
      const projects = await s.projects.list(userId, { perPage: 100 });
      assert.equal(c.projects, projects.items.length);
      for (const p of projects.items) {
        assert.equal(p.reportsCount, await countReports(t.db, userId, { project: p.project }));
        assert.ok(p.reportsCount > 0);
      }
    }

    test('create audits, stores and keeps counters', async () => {
      const r = await s.reports.create(alice, { url: `${site.origin}/mid?a=1#frag` });
      assert.equal(r.url, `${site.origin}/mid?a=1`);
      assert.equal(r.project, '127.0.0.1');
      assert.equal(r.userId, alice);
      assert.equal(r.result, 'decent');
      assert.equal(r.privacy, 0);
      assert.equal(r.hasPassword, false);
      assert.ok(Object.keys(r.results).length > 10);
      assert.equal(r.page.status, 200);
      assert.match(r.createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      assert.equal(r.createdAt, r.updatedAt);
      assert.deepEqual(await s.reports.get(alice, r.id), r);
      const list = await s.reports.list(alice, {});
      assert.equal(list.total, 1);
      assert.equal(list.items[0]!.id, r.id);
      await assertCountersExact(alice);
    });

    test('a page that cannot be fetched is a 422 under url and stores nothing', async () => {
      const before = (await getOrgCounters(t.db, alice)).reports;
      await rejects422(s.reports.create(alice, { url: 'http://127.0.0.1:1/' }), 'url', /refused/i);
      await rejects422(s.reports.create(alice, { url: `${site.origin}/text` }), 'url');
      assert.equal((await getOrgCounters(t.db, alice)).reports, before);
      assert.equal(await countReports(t.db, alice, {}), before);
    });

    test('privacy 2 needs a password; passwords are hashed and checked', async () => {
      await rejects422(s.reports.create(alice, { url: `${site.origin}/mid`, privacy: 2 }), 'password');
      const r = await s.reports.create(alice, {
        url: `${site.origin}/mid?p=2`,
        privacy: 2,
        password: 'sesame',
      });
      assert.equal(r.privacy, 2);
      assert.equal(r.hasPassword, true);
      assert.equal(JSON.stringify(r).includes('sesame'), false);
      assert.equal(await s.reports.verifyPassword(r.id, 'sesame'), true);
      assert.equal(await s.reports.verifyPassword(r.id, 'Sesame'), false);
      assert.equal(await s.reports.verifyPassword(r.id, ''), false);
      const stored = await t.db
        .selectFrom('reports')
        .select('password_hash')
        .where('id', '=', r.id)
        .executeTakeFirstOrThrow();
      assert.match(stored.password_hash!, /^scrypt\$\d+\$\d+\$\d+\$[\w-]+\$[\w-]+$/);
      // a password sent with privacy 0 or 1 is ignored
      const pub = await s.reports.create(alice, {
        url: `${site.origin}/mid?p=0`,
        privacy: 1,
        password: 'ignored',
      });
      assert.equal(pub.hasPassword, false);
      assert.equal(await s.reports.verifyPassword(pub.id, 'ignored'), false);
      assert.equal(await s.reports.verifyPassword(999_999, 'x'), false);
    });

    test('update: privacy and password rules of SPEC §3', async () => {
      const r = await s.reports.create(alice, { url: `${site.origin}/mid?u=1` });
      await rejects422(s.reports.update(alice, r.id, { privacy: 2 }), 'password');
      assert.equal((await s.reports.get(alice, r.id)).privacy, 0, 'unchanged after a 422');
      const p2 = await s.reports.update(alice, r.id, { privacy: 2, password: 'one' });
      assert.equal(p2.privacy, 2);
      assert.equal(p2.hasPassword, true);
      assert.ok(p2.updatedAt >= r.updatedAt);
      // privacy 2 again without a password keeps the one it has
      const again = await s.reports.update(alice, r.id, { privacy: 2 });
      assert.equal(again.hasPassword, true);
      assert.equal(await s.reports.verifyPassword(r.id, 'one'), true);
      // a new password without privacy on a privacy-2 report replaces it
      await s.reports.update(alice, r.id, { password: 'two' });
      assert.equal(await s.reports.verifyPassword(r.id, 'one'), false);
      assert.equal(await s.reports.verifyPassword(r.id, 'two'), true);
      // moving away from 2 clears the password
      const p1 = await s.reports.update(alice, r.id, { privacy: 1, password: 'ignored' });
      assert.equal(p1.privacy, 1);
      assert.equal(p1.hasPassword, false);
      assert.equal(await s.reports.verifyPassword(r.id, 'two'), false);
      await rejects422(s.reports.update(alice, r.id, { privacy: 2 }), 'password');
      // the audit is untouched by settings updates
      assert.equal((await s.reports.get(alice, r.id)).generatedAt, r.generatedAt);
    });

    test('results=1 re-audits, keeps history; a failed re-audit changes nothing but the history', async () => {
      site.route('/flip', html(goodPage(site.origin)));
      const r = await s.reports.create(alice, { url: `${site.origin}/flip` });
      assert.equal(r.result, 'good');
      assert.deepEqual(
        (await s.reports.runs(alice, r.id, {})).items.map((x) => x.number),
        [1],
      );
      site.route('/flip', html(MID));
      const u = await s.reports.update(alice, r.id, { results: true });
      assert.equal(u.result, 'decent');
      assert.notEqual(u.score, r.score);
      assert.ok(u.generatedAt > r.generatedAt);
      assert.equal(u.createdAt, r.createdAt);
      const first = await s.reports.run(alice, r.id, 1);
      assert.equal(first.current, false);
      assert.equal(first.source, null);
      assert.equal(first.result, 'good');
      assert.equal(first.score, r.score);
      assert.equal(first.generatedAt, r.generatedAt);
      assert.deepEqual(first.results, r.results);
      const second = await s.reports.run(alice, r.id, 2);
      assert.equal(second.current, true);
      assert.equal(second.source, 'api');
      assert.deepEqual(second.results, u.results);
      await assertCountersExact(alice);

      site.route('/flip', { headers: { 'content-type': 'application/pdf' }, body: '%PDF' });
      await rejects422(s.reports.update(alice, r.id, { results: true, privacy: 1 }), 'url');
      const unchanged = await s.reports.get(alice, r.id);
      assert.deepEqual(unchanged, u);
      const runs = (await s.reports.runs(alice, r.id, {})).items;
      assert.deepEqual(
        runs.map((x) => [x.number, x.status, x.current]),
        [
          [3, 'failed', false],
          [2, 'completed', true],
          [1, 'completed', false],
        ],
      );
      assert.match(runs[0]!.error!, /PDF|HTML|not/i);
    });

    test("another user's report answers 404 everywhere", async () => {
      const r = await s.reports.create(alice, { url: `${site.origin}/mid?own=1` });
      await rejects404(s.reports.get(bob, r.id));
      await rejects404(s.reports.update(bob, r.id, { privacy: 1 }));
      await rejects404(s.reports.delete(bob, r.id));
      await rejects404(s.reports.runs(bob, r.id, {}));
      await rejects404(s.reports.run(bob, r.id, 1));
      await rejects404(s.reports.diff(bob, r.id, {}));
      await rejects404(s.reports.reaudit(bob, r.id, { source: 'api' }));
      await rejects404(s.projects.delete(bob, '127.0.0.1'));
      await rejects404(s.reports.get(alice, 987_654));
      await rejects404(s.reports.get(alice, 2 ** 40));
      assert.equal((await s.reports.list(bob, {})).total, 0);
      assert.equal((await s.reports.get(alice, r.id)).privacy, 0);
      assert.equal((await s.reports.forViewer(r.id, null))?.report.id, r.id);
      assert.equal(await s.reports.forViewer(987_654, null), null);
    });

    test('delete report keeps counters; the last one removes its project', async () => {
      const r1 = await s.reports.create(bob, { url: `${site.origin}/mid?d=1` });
      const r2 = await s.reports.create(bob, { url: `${site.origin}/mid?d=2` });
      assert.equal((await s.projects.list(bob, {})).items[0]?.reportsCount, 2);
      await s.reports.delete(bob, r1.id);
      await rejects404(s.reports.delete(bob, r1.id));
      assert.equal((await s.projects.list(bob, {})).items[0]?.reportsCount, 1);
      await s.reports.delete(bob, r2.id);
      assert.deepEqual(await s.projects.list(bob, {}), { items: [], total: 0 });
      assert.deepEqual(await getOrgCounters(t.db, bob), {
        projects: 0,
        reports: 0,
        good: 0,
        decent: 0,
        bad: 0,
      });
    });

    test('delete project removes its reports and runs in one go', async () => {
      const ids: number[] = [];
      for (let i = 0; i < 3; i++)
        ids.push((await s.reports.create(bob, { url: `${site.origin}/mid?dp=${i}` })).id);
      await s.reports.update(bob, ids[0]!, { results: true });
      const res = await s.projects.delete(bob, '127.0.0.1');
      assert.deepEqual(res, { reportsDeleted: 3 });
      await rejects404(s.projects.delete(bob, '127.0.0.1'));
      const runs = await t.db
        .selectFrom('report_runs')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('report_id', 'in', ids)
        .executeTakeFirstOrThrow();
      assert.equal(Number(runs.n), 0, 'no orphan runs');
      assert.deepEqual(await getOrgCounters(t.db, bob), {
        projects: 0,
        reports: 0,
        good: 0,
        decent: 0,
        bad: 0,
      });
      await assertCountersExact(alice);
    });

    test('concurrent creates and deletes leave exact counts', async () => {
      const created = await Promise.all(
        Array.from({ length: 8 }, (_, i) => s.reports.create(bob, { url: `${site.origin}/mid?c=${i}` })),
      );
      assert.equal(new Set(created.map((r) => r.id)).size, 8);
      await assertCountersExact(bob);
      assert.equal((await s.reports.list(bob, {})).total, 8);
      // delete half while creating more
      const ops = await Promise.allSettled([
        ...created.slice(0, 4).map((r) => s.reports.delete(bob, r.id)),
        ...Array.from({ length: 4 }, (_, i) => s.reports.create(bob, { url: `${site.origin}/mid?c2=${i}` })),
        s.reports.delete(bob, created[0]!.id),
      ]);
      assert.equal(ops.filter((o) => o.status === 'rejected').length, 1, 'only the double delete fails');
      await assertCountersExact(bob);
      assert.equal((await s.reports.list(bob, {})).total, 8);
      // concurrent deletes of the same project: exactly one success, the other 404
      const both = await Promise.allSettled([
        s.projects.delete(bob, '127.0.0.1'),
        s.projects.delete(bob, '127.0.0.1'),
      ]);
      const ok = both.filter((o) => o.status === 'fulfilled');
      const failed = both.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
      assert.equal(ok.length, 1);
      assert.deepEqual((ok[0] as PromiseFulfilledResult<{ reportsDeleted: number }>).value, {
        reportsDeleted: 8,
      });
      assert.equal(failed.length, 1);
      assert.ok(failed[0]!.reason instanceof AppError && failed[0]!.reason.status === 404);
      assert.equal(await countReports(t.db, bob, {}), 0);
      assert.deepEqual(await getOrgCounters(t.db, bob), {
        projects: 0,
        reports: 0,
        good: 0,
        decent: 0,
        bad: 0,
      });
    });

    test('report deletes, re-audits and a project delete at once: no deadlock, exact counts', async () => {
      const made = await Promise.all(
        Array.from({ length: 6 }, (_, i) => s.reports.create(bob, { url: `${site.origin}/mid?mix=${i}` })),
      );
      const ops = await Promise.allSettled([
        s.reports.delete(bob, made[0]!.id),
        s.reports.update(bob, made[1]!.id, { results: true }),
        s.projects.delete(bob, '127.0.0.1'),
        s.reports.delete(bob, made[2]!.id),
        s.reports.update(bob, made[3]!.id, { privacy: 2, password: 'pw' }),
      ]);
      for (const o of ops) {
        if (o.status === 'rejected') {
          assert.ok(
            o.reason instanceof AppError && o.reason.status === 404,
            `only 404s: ${String(o.reason)}`,
          );
        }
      }
      assert.equal(ops[2]!.status, 'fulfilled', 'the project delete succeeds');
      await assertCountersExact(bob);
      assert.equal(await countReports(t.db, bob, {}), 0);
    });

    test('deleting a project while reports are being created leaves no orphans', async () => {
      await s.reports.create(bob, { url: `${site.origin}/mid?race=0` });
      await Promise.allSettled([
        s.projects.delete(bob, '127.0.0.1'),
        ...Array.from({ length: 4 }, (_, i) =>
          s.reports.create(bob, { url: `${site.origin}/mid?race=${i + 1}` }),
        ),
        s.projects.delete(bob, '127.0.0.1'),
      ]);
      await assertCountersExact(bob);
      const remaining = await countReports(t.db, bob, {});
      const projects = await s.projects.list(bob, {});
      assert.equal(projects.items[0]?.reportsCount ?? 0, remaining);
    });

    test('search totals are counted once per version of the user reports, exact after every change', async () => {
      const carol = (await insertOrg(t.db, 'carol', new Date().toISOString())).id;
      const search = (q: { search: string; result?: 'good' | 'decent'; page?: number }) =>
        s.reports.list(carol, { perPage: 10, ...q });
      site.route('/cache-flip', html(goodPage(site.origin)));
      const a = await s.reports.create(carol, { url: `${site.origin}/mid?cache=1` });
      const b = await s.reports.create(carol, { url: `${site.origin}/mid?cache=2` });
      const flip = await s.reports.create(carol, { url: `${site.origin}/cache-flip?cache=3` });
      // a burst of the same search shares one count
      const burst = await Promise.all(Array.from({ length: 5 }, () => search({ search: 'CACHE=' })));
      assert.deepEqual(
        burst.map((r) => r.total),
        [3, 3, 3, 3, 3],
      );
      assert.equal((await search({ search: 'cache=', result: 'good' })).total, 1);
      const page1 = await search({ search: 'CACHE=' });
      assert.deepEqual(
        page1.items.map((r) => r.id),
        [flip.id, b.id, a.id],
      );
      assert.deepEqual(await search({ search: 'CACHE=', page: 2 }), { items: [], total: 3 });
      // pages are kept per version too, their rows read fresh; a re-audit with the same result
      // reorders sort_by=generated_at and starts a new version
      const byDate = () =>
        s.reports.list(carol, { search: 'cache=', sortBy: 'generated_at' }).then((r) => r.items);
      assert.deepEqual(
        (await byDate()).map((r) => r.id),
        [flip.id, b.id, a.id],
      );
      await s.reports.update(carol, a.id, { privacy: 1 });
      assert.equal((await byDate()).find((r) => r.id === a.id)?.privacy, 1);
      const reaudited = await s.reports.update(carol, b.id, { results: true });
      assert.equal(reaudited.result, b.result);
      assert.deepEqual(
        (await byDate()).map((r) => r.id),
        [b.id, flip.id, a.id],
      );
      assert.equal((await search({ search: 'CACHE=' })).total, 3);

      // a row written without the counters (so without a new version) is not seen: the
      // repeated search did not count again
      const version = await t.db
        .selectFrom('organizations')
        .select('reports_version')
        .where('id', '=', carol)
        .executeTakeFirstOrThrow();
      await withTransaction(t.db, async (trx) => {
        await insertReport(trx, {
          userId: carol,
          url: `${site.origin}/mid?cache=4`,
          pageKey: `${site.origin}/mid?cache=4`,
          project: '127.0.0.1',
          privacy: 0,
          passwordHash: null,
          now: new Date().toISOString(),
          finalUrl: `${site.origin}/mid?cache=4`,
          result: 'decent',
          score: 60,
          generatedAt: new Date().toISOString(),
          categories: a.categories,
          results: a.results,
          page: a.page,
        });
      });
      assert.equal((await search({ search: 'CACHE=' })).total, 3, 'cached for this version');
      // …and is counted once the counters (and the version) move, as they do in the same
      // transaction as every real insert
      await adjustOrgCounters(t.db, carol, { reports: 1, decent: 1 });
      const after = await t.db
        .selectFrom('organizations')
        .select('reports_version')
        .where('id', '=', carol)
        .executeTakeFirstOrThrow();
      assert.ok(Number(after.reports_version) > Number(version.reports_version));
      assert.equal((await search({ search: 'CACHE=' })).total, 4);

      // create, delete, a re-audit that changes the result, a project delete: exact each time
      await s.reports.create(carol, { url: `${site.origin}/mid?cache=5` });
      assert.equal((await search({ search: 'CACHE=' })).total, 5);
      await s.reports.delete(carol, a.id);
      assert.equal((await search({ search: 'CACHE=' })).total, 4);
      site.route('/cache-flip', html(MID));
      assert.equal((await s.reports.update(carol, flip.id, { results: true })).result, 'decent');
      assert.equal((await search({ search: 'cache=', result: 'good' })).total, 0);
      assert.equal((await search({ search: 'cache=', result: 'decent' })).total, 4);

      // another process (its own services and cache) writes: this one sees it at once
      const other = createServices({ queue: embeddedQueue(t.db), db: t.db, analyze, config });
      await other.reports.create(carol, { url: `${site.origin}/mid?cache=6` });
      assert.equal((await search({ search: 'CACHE=' })).total, 5);
      assert.equal((await other.reports.list(carol, { search: 'cache=' })).total, 5);
      await other.projects.delete(carol, '127.0.0.1');
      assert.deepEqual(await search({ search: 'CACHE=' }), { items: [], total: 0 });
      assert.equal((await search({ search: 'cache=', result: 'decent' })).total, 0);
    });
  });
}
