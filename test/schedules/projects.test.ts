// A project's schedule (docs/sites.md "Scheduled crawls") through the embedded job engine (the
// jobs table) on SQLite and PostgreSQL, against a fixture site on 127.0.0.1 (site.test):
// the settings keep the schedule row (created, changed, cleared, gone with the project; a
// schedule without a start_url is a 422); a due slot makes exactly one batch, recorded on the
// schedule, even when two schedulers tick at once; a crawl of the project still running makes
// the next due slot `skipped` with the reason; after downtime of five periods it is caught up
// once; two executions of one slot (at-least-once jobs) make one crawl; GET /api/v1/schedules
// lists it beside a report's schedule (checked against the OpenAPI document) and the
// dashboard's schedules page shows both.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { describeEachDialect, type TestApp } from '../helpers/app.js';
import { batchEnded, startBatchApp, type BatchApp } from '../helpers/batch-app.js';
import { Browser } from '../helpers/browser.js';
import { buildReport, buildUser, type TestUser } from '../helpers/factories.js';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.js';
import { checkAgainstOpenApi } from '../helpers/openapi-check.js';
import { waitFor } from '../helpers/queues.js';
import type { ListedSchedule } from '../../src/services/schedules/types.js';

const HOUR = 3600_000;

/** A gate: `held` settles once `open()` is called. */
function gate(): { held: Promise<void>; open(): void } {
  let open!: () => void;
  const held = new Promise<void>((r) => (open = r));
  return { held, open };
}

describeEachDialect('project schedules', (dialect) => {
  let app: BatchApp;
  let t: TestApp;
  let site: FixtureSite;
  let slow: FixtureSite;
  const slowGate = gate();
  let alice: TestUser;
  let bob: TestUser;
  let project: string;

  before(async () => {
    app = await startBatchApp(dialect, { pollMs: 50 });
    t = app.t;
    site = await startFixtureSite({ pages: 4, crawlDelay: null, plain: true });
    // the same host (site.test) on another port: its answers wait until the test lets them go
    // (slowGate), a crawl that lasts as long as the test needs it running
    slow = await startFixtureSite({ pages: 4, crawlDelay: null, plain: true, hold: () => slowGate.held });
    project = new URL(site.origin).hostname;
    alice = await buildUser(t.services, 'alice');
    bob = await buildUser(t.services, 'bob');
  });
  after(async () => {
    try {
      if (t) await checkAgainstOpenApi({ ...t, alice, bob });
    } finally {
      await app?.close();
      await site?.close();
      slowGate.open();
      await slow?.close();
    }
  });

  const rowOf = () =>
    t.database.db
      .selectFrom('schedules')
      .innerJoin('projects', 'projects.id', 'schedules.project_id')
      .select(['schedules.id', 'schedules.every', 'schedules.timezone', 'schedules.next_run_at'])
      .where('projects.org_id', '=', alice.id)
      .where('projects.name', '=', project)
      .executeTakeFirst();
  /** Puts the project's next run `agoMs` in the past (as after downtime). */
  const makeDue = async (agoMs: number) => {
    const row = await rowOf();
    await t.database.db
      .updateTable('schedules')
      .set({ next_run_at: new Date(Date.now() - agoMs).toISOString() })
      .where('id', '=', row!.id)
      .execute();
  };
  const listed = async (): Promise<ListedSchedule> => {
    const all = await t.services.schedules.list(alice.id, { page: 1, perPage: 100 });
    return all.items.find((s) => s.kind === 'project' && s.project === project)!;
  };
  /** The schedule once its slot is recorded and no run of it is under way. */
  const settled = (what: string, ok: (s: ListedSchedule) => boolean) =>
    waitFor(
      async () => {
        const s = await listed();
        return s && !s.running && ok(s) ? s : null;
      },
      what,
      30_000,
    ).then((s) => s!);
  const batchesOfProject = async () =>
    (
      await t.database.db
        .selectFrom('batches')
        .select('id')
        .where('org_id', '=', alice.id)
        .where('project', '=', project)
        .orderBy('id')
        .execute()
    ).map((b) => b.id);

  test('the settings keep the schedule row: created, changed, kept, cleared, gone with the project', async () => {
    const send = (method: 'PUT' | 'PATCH', body: unknown) =>
      t.request({
        method,
        url: `/api/v1/projects/${project}`,
        headers: { ...alice.auth, 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      });
    // a schedule needs a start URL to crawl from
    let res = await send('PUT', { schedule: { every: 'daily' } });
    assert.equal(res.statusCode, 422, res.body);
    assert.match(
      JSON.stringify(res.json()),
      /"schedule":\["The schedule cannot be set this way: a schedule crawls from the start_url/,
    );
    assert.equal(await rowOf(), undefined, 'nothing stored');

    res = await send('PUT', {
      start_url: `${site.origin}/`,
      max_depth: 3,
      schedule: { every: 'daily', timezone: 'Europe/Paris' },
    });
    assert.equal(res.statusCode, 201, res.body);
    const first = (await rowOf())!;
    assert.equal(first.every, 'daily');
    assert.equal(first.timezone, 'Europe/Paris');
    assert.ok(new Date(first.next_run_at).getTime() > Date.now(), 'the first run is in the future');

    // another setting: the schedule row and its next run stay as they are
    res = await send('PATCH', { max_pages: 50 });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(await rowOf(), first);
    // clearing the start URL while scheduled is refused under start_url
    res = await send('PATCH', { start_url: null });
    assert.equal(res.statusCode, 422, res.body);
    assert.ok((res.json() as { errors: Record<string, string[]> }).errors['start_url']);

    res = await send('PATCH', { schedule: { every: '30 6 * * 1-5' } });
    assert.equal(res.statusCode, 200, res.body);
    const changed = (await rowOf())!;
    assert.equal(changed.id, first.id, 'the same schedule');
    assert.equal(changed.every, '30 6 * * 1-5');
    assert.equal(changed.timezone, 'UTC');

    res = await send('PATCH', { schedule: null });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(await rowOf(), undefined, 'cleared: no schedule row');

    res = await send('PATCH', { schedule: { every: 'hourly' } });
    assert.equal(res.statusCode, 200, res.body);
    assert.ok(await rowOf());
    // bob has no such project
    const other = await t.request({
      method: 'PATCH',
      url: `/api/v1/projects/${project}`,
      headers: { ...bob.auth, 'content-type': 'application/json' },
      payload: JSON.stringify({ schedule: { every: 'hourly' } }),
    });
    assert.equal(other.statusCode, 404);

    await t.services.projects.delete(alice.id, project);
    assert.equal(
      (await t.database.db.selectFrom('schedules').select('id').where('project_id', 'is not', null).execute())
        .length,
      0,
      'the project took its schedule with it',
    );
    res = await send('PUT', { start_url: `${site.origin}/`, max_depth: 3, schedule: { every: 'hourly' } });
    assert.equal(res.statusCode, 201, res.body);
  });

  test('a due slot makes exactly one batch, recorded on the schedule (two schedulers at once)', async () => {
    assert.deepEqual(await batchesOfProject(), []);
    await makeDue(1000);
    const enqueued = await Promise.all([
      t.services.schedules.enqueueDue(),
      t.services.schedules.enqueueDue(),
    ]);
    assert.equal(enqueued[0] + enqueued[1], 1, 'one job for the slot');
    const s = await settled('the slot started its crawl', (s) => s.lastStatus === 'started');
    const batches = await batchesOfProject();
    assert.equal(batches.length, 1);
    assert.equal(s.lastBatchId, batches[0]);
    assert.equal(s.lastError, null);
    assert.ok(new Date(s.nextRunAt).getTime() > Date.now(), 'the next run is in the future');
    assert.ok(new Date(s.nextRunAt).getTime() <= Date.now() + HOUR + 5 * 60_000, 'within the next slot');
    const done = await batchEnded(t, alice.id, batches[0]!);
    assert.equal(done.status, 'done');
    assert.equal(done.url, `${site.origin}/`, "the project's settings: its start URL");
    assert.ok(done.progress.audited >= 4, JSON.stringify(done.progress));
    // more ticks: the next slot is an hour away, nothing else starts
    assert.equal(await t.services.schedules.enqueueDue(), 0);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal((await batchesOfProject()).length, 1);
  });

  test('a crawl of the project still running: the due slot is skipped and says so', async () => {
    const patch = await t.services.projects.patch(alice.id, project, { start_url: `${slow.origin}/` });
    assert.equal(patch.settings.start_url, `${slow.origin}/`);
    const running = await t.services.projects.crawl(alice.id, project);
    const before = await listed();
    await makeDue(1000);
    assert.equal(await t.services.schedules.enqueueDue(), 1);
    const s = await settled('the slot skipped', (s) => s.lastStatus === 'skipped');
    assert.match(s.lastError ?? '', new RegExp(`still (queued|running) \\(batch ${running.id}\\)`));
    assert.equal(s.lastBatchId, before.lastBatchId, 'the last batch the schedule started stays');
    assert.deepEqual((await batchesOfProject()).slice(-1), [running.id], 'no second crawl');
    assert.ok(new Date(s.nextRunAt).getTime() > Date.now(), 'the schedule goes on');
    // the crawl was held all along (its site answers nothing until now): let it end
    assert.ok(
      ['queued', 'running'].includes((await t.services.batches.get(alice.id, running.id)).status),
      'the crawl was still under way when the slot was skipped',
    );
    slowGate.open();
    const ended = await batchEnded(t, alice.id, running.id);
    assert.equal(ended.status, 'done');
    // the crawl has ended: the next due slot crawls
    await makeDue(1000);
    assert.equal(await t.services.schedules.enqueueDue(), 1);
    const next = await settled(
      'the next slot started',
      (s) => s.lastStatus === 'started' && s.lastBatchId !== before.lastBatchId,
    );
    const all = await batchesOfProject();
    assert.equal(next.lastBatchId, all[all.length - 1]);
    assert.notEqual(next.lastBatchId, running.id);
    await batchEnded(t, alice.id, next.lastBatchId!);
    await t.services.projects.patch(alice.id, project, { start_url: `${site.origin}/` });
  });

  test('after downtime of five periods, the missed slots are caught up once', async () => {
    const before = (await batchesOfProject()).length;
    await makeDue(5 * HOUR + 60_000);
    assert.equal(await t.services.schedules.enqueueDue(), 1);
    const s = await settled('the catch-up slot', (s) => s.lastStatus === 'started');
    for (let i = 0; i < 3; i++) assert.equal(await t.services.schedules.enqueueDue(), 0);
    await new Promise((r) => setTimeout(r, 300));
    const after = await batchesOfProject();
    assert.equal(after.length, before + 1, 'one crawl for five missed slots');
    assert.equal(s.lastBatchId, after[after.length - 1]);
    assert.ok(new Date(s.nextRunAt).getTime() > Date.now(), 'goes on from now');
    assert.ok(new Date(s.nextRunAt).getTime() <= Date.now() + HOUR + 5 * 60_000);
    await batchEnded(t, alice.id, s.lastBatchId!);
  });

  test('at-least-once: two executions of a slot make one crawl; a takeover records the crawl already made', async () => {
    const row = (await rowOf())!;
    const job = { attempt: 1, maxAttempts: 3 };
    const run = (slot: string) => t.services.schedules.run(row.id, slot, job);
    // claimed as the scheduler claims (the next run an hour away: nothing else claims it)
    const claim = (slot: string, startedAgoMs: number | null) =>
      t.database.db
        .updateTable('schedules')
        .set({
          claimed_slot: slot,
          claimed_at: new Date(Date.now() - 2000).toISOString(),
          run_started_at: startedAgoMs === null ? null : Date.now() - startedAgoMs,
        })
        .where('id', '=', row.id)
        .execute();
    const before = (await batchesOfProject()).length;
    const slot = new Date(Date.now() - 1000).toISOString();
    await claim(slot, null);
    const results = await Promise.all([run(slot), run(slot)]);
    assert.deepEqual(results.map((r) => r.status).sort(), ['skipped', 'started'], JSON.stringify(results));
    assert.match(JSON.stringify(results), /another run of this slot is under way/);
    const made = await batchesOfProject();
    assert.equal(made.length, before + 1, 'one crawl for the slot');
    assert.equal((await run(slot)).status, 'skipped', 'a slot that has run does nothing');
    await batchEnded(t, alice.id, made[made.length - 1]!);

    // the first execution started the crawl and died before recording it: the one that takes
    // over after the lease records that crawl instead of starting a second one
    const slot2 = new Date(Date.now() - 500).toISOString();
    await claim(slot2, 120_000);
    const orphan = await t.services.projects.crawl(alice.id, project);
    const taken = await run(slot2);
    assert.deepEqual(taken, { status: 'started', batchId: orphan.id });
    assert.equal((await batchesOfProject()).length, before + 2);
    assert.equal((await listed()).lastBatchId, orphan.id);
    await batchEnded(t, alice.id, orphan.id);
  });

  test('GET /api/v1/schedules lists it beside a report schedule; the dashboard page shows both', async () => {
    const report = await buildReport(t.services, alice, { path: '/scheduled-report' });
    await t.services.schedules.put(alice.id, report.id, { every: 'daily' });
    const res = await t.request({ method: 'GET', url: '/api/v1/schedules', headers: alice.auth });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json() as { data: Record<string, unknown>[]; meta: { total: number } };
    assert.equal(body.meta.total, 2);
    const [newest, older] = body.data;
    assert.equal(newest!['kind'], 'report');
    assert.equal(newest!['report_id'], report.id);
    assert.equal(newest!['last_batch_id'], null);
    assert.equal(older!['kind'], 'project');
    assert.equal(older!['report_id'], null);
    assert.equal(older!['project'], project);
    assert.equal(older!['url'], `${site.origin}/`);
    assert.equal(older!['every'], 'hourly');
    assert.equal(older!['last_status'], 'started');
    assert.equal(typeof older!['next_run_at'], 'string');
    const links = older!['links'] as Record<string, string>;
    assert.equal(links['self'], `http://pagegrade.test:8080/api/v1/projects/${project}`);
    assert.equal(links['last_batch'], `http://pagegrade.test:8080/api/v1/batches/${older!['last_batch_id']}`);
    // another user sees neither
    const bobs = await t.request({ method: 'GET', url: '/api/v1/schedules', headers: bob.auth });
    assert.equal((bobs.json() as { meta: { total: number } }).meta.total, 0);

    const b = new Browser(t.app);
    await b.login(alice.key);
    const page = await b.get('/dashboard/schedules');
    assert.equal(page.statusCode, 200, page.body);
    assert.match(page.body, /<h1>Schedules<\/h1>/);
    assert.match(page.body, /data-kind="project"/);
    assert.match(page.body, /data-kind="report"/);
    assert.ok(
      page.body.includes(`/dashboard/batches/${older!['last_batch_id']}`),
      'the last crawl is linked',
    );
    assert.ok(page.body.includes(`/reports/${report.id}#schedule`));
    assert.match(page.body, /crawl started/);
  });
});
