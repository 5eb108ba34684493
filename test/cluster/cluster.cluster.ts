// The cluster test (`npm run test:cluster`, scripts/test-cluster.mjs; docs/testing.md and
// docs/scale.md "Cluster test"): the built service on hosts in network namespaces
// (test/helpers/cluster/cluster.ts), crawling a latency-bound generated site while hosts are cut off,
// killed, and while Redis and PostgreSQL go away, and while 1,000 report schedules and 10
// project crawl schedules come due together with one worker host's clock 5 minutes ahead. Every
// figure is printed. Not part of the
// normal suite (scripts/run-tests.mjs runs *.test.ts only).
import { existsSync } from 'node:fs';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { api } from '../helpers/service-process.js';
import {
  Cluster,
  KEY,
  LATENCY_MS,
  PAGE_LEASE_MS,
  PAGE_SLOTS,
  SLOW_LATENCY_MS,
} from '../helpers/cluster/cluster.js';
import { reachableFrom, setLink } from '../helpers/cluster/netns.js';

const PAGES = Number(process.env.PAGEGRADE_CLUSTER_PAGES ?? 150);
/** the pages/s comparison: a smaller site at SLOW_LATENCY_MS, so that it is bound by the latency, not the (shared) CPU */
const SPEED_PAGES = Number(process.env.PAGEGRADE_CLUSTER_SPEED_PAGES ?? 36);
/** the schedules step: report schedules (pages of one crawl) and the pages of each project's crawl */
const SCHEDULED = Number(process.env.PAGEGRADE_CLUSTER_SCHEDULES ?? 1000);
const PROJECT_PAGES = 5;
/** libfaketime (Debian's faketime): one worker host runs 5 minutes ahead in the schedules step */
const LIBFAKETIME =
  ['/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1', '/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1'].find(
    (p) => existsSync(p),
  ) ?? null;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const say = (line: string) => console.log(`# cluster: ${line}`);

const c = new Cluster(2000);

interface LogEntry {
  path: string;
  from: string;
  id: string | null;
  start: number;
  end: number | null;
  body: string | null;
}

async function log(origin: string): Promise<LogEntry[]> {
  const res = await fetch(`${origin}/__log`);
  return (await res.json()) as LogEntry[];
}

const pageEntries = (entries: LogEntry[], prefix: string) =>
  entries.filter((e) => e.path === `/${prefix}/` || e.path.startsWith(`/${prefix}/n/`));

async function startCrawl(prefix: string, pages: number, origin = c.api1): Promise<number> {
  const res = await api(origin, KEY, 'POST', '/api/v1/batches', {
    url: `${c.web}/${prefix}/`,
    mode: 'crawl',
    max_pages: String(pages),
    max_depth: '10',
  });
  assert.equal(res.status, 202, JSON.stringify(res.body));
  return res.body.data.id as number;
}

interface Batch {
  status: string;
  progress: { discovered: number; audited: number; failed: number; skipped: number; remaining: number };
}

async function batch(id: number, origin = c.api2): Promise<Batch> {
  const res = await api(origin, KEY, 'GET', `/api/v1/batches/${id}`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.data as Batch;
}

async function waitBatch(id: number, timeoutMs: number): Promise<Batch> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const b = await batch(id).catch(() => null);
    if (b && !['queued', 'running'].includes(b.status)) return b;
    if (Date.now() > deadline)
      throw new Error(`batch ${id} not finished in ${timeoutMs} ms: ${JSON.stringify(b)}`);
    await sleep(250);
  }
}

/** Resolves when the web host has served `n` pages of the prefix. */
async function waitPages(prefix: string, n: number, timeoutMs = 60_000): Promise<LogEntry[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const entries = pageEntries(await log(c.web), prefix);
    if (entries.length >= n) return entries;
    if (Date.now() > deadline)
      throw new Error(`only ${entries.length} pages of /${prefix}/ served in ${timeoutMs} ms`);
    await sleep(100);
  }
}

/**
 * Every page of the crawl audited exactly once to completion: the batch done with `pages`
 * audited, one report per page in the database with one run (none added by a second audit),
 * and each page requested from the web host at least once. Answers the web host's entries.
 */
async function assertOnce(prefix: string, id: number, pages: number, timeoutMs = 120_000): Promise<LogEntry[]> {
  const b = await waitBatch(id, timeoutMs);
  if (b.progress.failed > 0) {
    const failed = await c.sql<{ url: string; error: string }>(
      `SELECT url, error FROM batch_pages WHERE batch_id = $1 AND state <> 'done'`,
      [id],
    );
    say(`batch ${id}: pages not done: ${JSON.stringify(failed)}`);
  }
  assert.equal(b.status, 'done', JSON.stringify(b));
  assert.equal(b.progress.audited, pages, JSON.stringify(b.progress));
  assert.equal(b.progress.failed, 0, JSON.stringify(b.progress));
  const states = await c.sql<{ state: string; n: string }>(
    'SELECT state, count(*) AS n FROM batch_pages WHERE batch_id = $1 GROUP BY state',
    [id],
  );
  assert.deepEqual(
    states.map((s) => [s.state, Number(s.n)]),
    [['done', pages]],
  );
  const [reports] = await c.sql<{ n: string; runs: string; max: number }>(
    `SELECT count(*) AS n, max(run_number) AS max,
            (SELECT count(*) FROM report_runs rr JOIN reports r2 ON r2.id = rr.report_id WHERE r2.url LIKE $1) AS runs
       FROM reports WHERE url LIKE $1`,
    [`${c.web}/${prefix}/%`],
  );
  assert.equal(Number(reports!.n), pages, 'one report per page');
  assert.equal(Number(reports!.max), 1, 'no page audited twice to completion (a second run)');
  assert.equal(Number(reports!.runs), 0, 'no earlier runs');
  const entries = pageEntries(await log(c.web), prefix);
  const paths = new Set(entries.map((e) => e.path));
  assert.equal(paths.size, pages, 'every page requested from the web host');
  return entries;
}

function perHost(entries: LogEntry[]): string {
  const counts = new Map<string, number>();
  for (const e of entries) counts.set(e.from, (counts.get(e.from) ?? 0) + 1);
  return [...counts]
    .sort()
    .map(([h, n]) => `${h}: ${n}`)
    .join(', ');
}

/**
 * Pages/s from the web host's log: requests begun per second from the second request (the start
 * page's first link, when the crawl has pages to spread) to the last.
 */
function rate(entries: LogEntry[]): { seconds: number; perSecond: number } {
  const starts = entries.map((e) => e.start).sort((x, y) => x - y);
  const seconds = (starts.at(-1)! - starts[1]!) / 1000;
  return { seconds, perSecond: (starts.length - 2) / seconds };
}

const repeated = (entries: LogEntry[]) => {
  const n = new Map<string, number>();
  for (const e of entries) n.set(e.path, (n.get(e.path) ?? 0) + 1);
  return [...n.values()].filter((v) => v > 1).length;
};

before(async () => {
  const t0 = Date.now();
  await c.up();
  await c.startWorker('w1');
  say(
    `up in ${((Date.now() - t0) / 1000).toFixed(1)} s (temp folder ${c.dir}); site latency ${LATENCY_MS} ms, ${PAGE_SLOTS} pages at once per worker host, page lease ${PAGE_LEASE_MS} ms`,
  );
});

after(async () => {
  await c.down(process.env.PAGEGRADE_CLUSTER_KEEP === '1');
});

test('a crawl is audited exactly once, and three worker hosts crawl ≥ 2.5× as fast as one', async () => {
  const one = await startCrawl('slowa', SPEED_PAGES);
  const oneEntries = await assertOnce('slowa', one, SPEED_PAGES);
  const r1 = rate(oneEntries);
  say(
    `1 worker host, ${SLOW_LATENCY_MS} ms a page: ${SPEED_PAGES} pages in ${r1.seconds.toFixed(1)} s = ${r1.perSecond.toFixed(2)} pages/s; requests: ${oneEntries.length} for ${SPEED_PAGES} pages; by host: ${perHost(oneEntries)}`,
  );
  assert.equal(oneEntries.length, SPEED_PAGES, 'each page requested once');

  await Promise.all([c.startWorker('w2'), c.startWorker('w3')]);
  const three = await startCrawl('slowb', SPEED_PAGES, c.api2);
  const threeEntries = await assertOnce('slowb', three, SPEED_PAGES);
  const r3 = rate(threeEntries);
  say(
    `3 worker hosts, ${SLOW_LATENCY_MS} ms a page: ${SPEED_PAGES} pages in ${r3.seconds.toFixed(1)} s = ${r3.perSecond.toFixed(2)} pages/s (${(r3.perSecond / r1.perSecond).toFixed(2)}× one host); requests: ${threeEntries.length} for ${SPEED_PAGES} pages; by host: ${perHost(threeEntries)}`,
  );
  assert.equal(threeEntries.length, SPEED_PAGES, 'each page requested once');
  assert.ok(
    r3.perSecond >= 2.5 * r1.perSecond,
    `3 hosts ${r3.perSecond.toFixed(2)} pages/s < 2.5 × ${r1.perSecond.toFixed(2)}`,
  );
});

test('a worker host cut off mid-crawl: its pages are taken over after the lease, none lost or audited twice; it rejoins', async () => {
  const w2 = c.procs.get('w2')!;
  const id = await startCrawl('c', PAGES);
  await waitPages('c', Math.round(PAGES / 4));
  setLink(c.hosts.w2, false);
  const cutAt = Date.now();
  const before = pageEntries(await log(c.web), 'c');
  const inFlight = before.filter((e) => e.from === c.address('w2') && e.start > cutAt - 2 * LATENCY_MS - 500);
  say(`w2 cut off after ${before.length} pages served; its requests in the last moment: ${inFlight.length}`);
  await sleep(PAGE_LEASE_MS * 2 + 2000);
  const during = pageEntries(await log(c.web), 'c').filter((e) => e.start > cutAt);
  const gaps = during.map((e) => e.start).sort((x, y) => x - y);
  const longest = gaps.reduce((m, t, i) => Math.max(m, t - (i === 0 ? cutAt : gaps[i - 1]!)), 0);
  say(`while w2 was cut off: ${during.length} pages, the longest pause between two requests ${longest} ms`);
  // the others never wait for the lost host for long: at worst its lease, or the end of its
  // transaction (idle_in_transaction_session_timeout, 3 s here)
  assert.ok(
    during.length >= 20,
    `the other hosts went on: ${during.length} pages in ${PAGE_LEASE_MS * 2 + 2000} ms`,
  );
  assert.ok(longest <= PAGE_LEASE_MS + 3000, `no long stall: ${longest} ms`);
  // (a request already on its way when the link went down may arrive just after)
  const late = during.filter((e) => e.from === c.address('w2') && e.start > cutAt + 500);
  assert.equal(late.length, 0, 'nothing from the cut-off host');
  setLink(c.hosts.w2, true);
  // back means reachable again: the link up, and the web host answering w2 (its kernel's
  // neighbour entry for the web host failed while cut off, and a connect in the next moments
  // can still fail with "host unreachable" — which a page audited then would report)
  const reachable = await reachableFrom(c.hosts.w2, c.address('web'), 8080, 20_000);
  say(`w2 reaches the web host again ${reachable} ms after its link came up`);
  say(
    `w2 back after ${((Date.now() - cutAt) / 1000).toFixed(1)} s; meanwhile ${during.length} pages by ${perHost(during)}`,
  );
  const entries = await assertOnce('c', id, PAGES);
  const taken = new Set(before.filter((e) => e.from === c.address('w2')).map((e) => e.path));
  const again = entries.filter((e) => e.start > cutAt && taken.has(e.path));
  say(
    `crawl done: ${entries.length} requests for ${PAGES} pages (${repeated(entries)} pages requested twice; ${again.length} of w2's pages requested again by ${perHost(again) || 'none'}); by host: ${perHost(entries)}`,
  );
  assert.ok(w2.alive(), `w2 still running:\n${w2.output()}`);

  // rejoined: it takes pages of the next crawls. One run saw it take none of the first crawl
  // after coming back (its job engine's connections were still recovering): the next crawls go
  // on, within a minute, until it takes pages again — and how long that took is printed
  const backAt = Date.now();
  let fromW2 = 0;
  for (let round = 1; fromW2 === 0; round++) {
    const next = await startCrawl(`c${round + 1}`, 30);
    const nextEntries = await assertOnce(`c${round + 1}`, next, 30);
    fromW2 = nextEntries.filter((e) => e.from === c.address('w2')).length;
    say(
      `after rejoining, crawl ${round}: w2 audited ${fromW2} of its 30 pages (by host: ${perHost(nextEntries)}), ${Date.now() - backAt} ms after the first began`,
    );
    if (fromW2 === 0 && Date.now() - backAt > 60_000) break;
  }
  assert.ok(fromW2 > 0, 'the host that came back works again (within a minute)');
});

async function hookEntries(batchId: number): Promise<LogEntry[]> {
  return (await log(c.hook)).filter((e) => {
    try {
      return (
        (JSON.parse(e.body ?? '{}') as { data?: { batch?: { id?: number } } }).data?.batch?.id === batchId
      );
    } catch {
      return false;
    }
  });
}

test('a worker host killed (kill -9) mid-crawl and mid-delivery: every page and every delivery completes', async () => {
  const hook = await api(c.api1, KEY, 'POST', '/api/v1/webhooks', {
    url: `${c.hook}/deliveries`,
    events: 'batch.page.completed',
  });
  assert.equal(hook.status, 201, JSON.stringify(hook.body));
  const w3 = c.procs.get('w3')!;
  const id = await startCrawl('d', PAGES, c.api2);
  await waitPages('d', Math.round(PAGES / 4));
  // wait until w3 is in the middle of a delivery (the receiver holds each one HOOK_DELAY_MS)
  const deadline = Date.now() + 30_000;
  let open: LogEntry[] = [];
  while (Date.now() < deadline) {
    open = (await hookEntries(id)).filter((e) => e.from === c.address('w3') && e.end === null);
    if (open.length > 0) break;
    await sleep(20);
  }
  w3.kill('SIGKILL');
  const killedAt = Date.now();
  await w3.exited;
  // in flight at the kill: the receiver had not answered by then (a delivery answered between the
  // look above and the kill may have been recorded by w3: it need not be sent again)
  open = (await hookEntries(id)).filter((e) => e.from === c.address('w3') && (e.end === null || e.end >= killedAt));
  const pagesThen = pageEntries(await log(c.web), 'd');
  const inFlight = pagesThen.filter((e) => e.from === c.address('w3') && e.end === null);
  say(
    `w3 killed with ${open.length} deliveries and ${inFlight.length} page requests in flight (${pagesThen.length} pages served)`,
  );
  assert.ok(open.length > 0, 'w3 was delivering when it was killed');

  const entries = await assertOnce('d', id, PAGES);
  const again = entries.filter((e) => e.start > killedAt && inFlight.some((f) => f.path === e.path));
  say(
    `crawl done: ${entries.length} requests for ${PAGES} pages (${repeated(entries)} pages requested twice; w3's pages in flight requested again by ${perHost(again) || 'none'}); by host: ${perHost(entries)}`,
  );

  // every delivery completes: one delivered row per page, and each message received
  const waitUntil = Date.now() + 60_000;
  let rows: { status: string; n: string }[] = [];
  for (;;) {
    rows = await c.sql<{ status: string; n: string }>(
      `SELECT status, count(*) AS n FROM webhook_deliveries
        WHERE event = 'batch.page.completed' AND payload LIKE $1 GROUP BY status`,
      [`%"batch":{"id":${id}}%`],
    );
    if (rows.length === 1 && rows[0]!.status === 'delivered' && Number(rows[0]!.n) === PAGES) break;
    if (Date.now() > waitUntil) break;
    await sleep(250);
  }
  const received = await hookEntries(id);
  const ids = new Set(received.map((e) => e.id));
  const resent = received.filter((e) => e.start > killedAt && open.some((o) => o.id === e.id));
  say(
    `deliveries: ${JSON.stringify(rows.map((r) => [r.status, Number(r.n)]))}; ${received.length} requests received for ${ids.size} messages; w3's open deliveries sent again by ${perHost(resent) || 'none'}`,
  );
  assert.deepEqual(
    rows.map((r) => [r.status, Number(r.n)]),
    [['delivered', PAGES]],
  );
  assert.equal(ids.size, PAGES, 'every message received');
  assert.ok(
    open.every((o) => resent.some((r) => r.id === o.id)),
    'each delivery w3 had in flight was sent again',
  );

  // w3 comes back and works again
  const back = await c.startWorker('w3');
  const next = await startCrawl('d2', 30);
  const nextEntries = await assertOnce('d2', next, 30);
  const fromW3 = nextEntries.filter((e) => e.from === c.address('w3')).length;
  say(`restarted, w3 audited ${fromW3} of the next crawl's 30 pages`);
  assert.ok(back.alive() && fromW3 > 0, 'the restarted host works');
  const del = await api(c.api1, KEY, 'DELETE', `/api/v1/webhooks/${hook.body.data.id}`);
  assert.ok(del.status === 204 || del.status === 200, String(del.status));
});

/** GETs a batch and the report list through both API hosts every 250 ms until stopped: the statuses seen (and `slowest ms`). */
function pollReads(batchId: number): { stop(): Promise<Map<string, number>> } {
  const seen = new Map<string, number>();
  let slowest = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      await Promise.all(
        [c.api1, c.api2].flatMap((origin) =>
          [`/api/v1/batches/${batchId}`, '/api/v1/reports?per_page=10'].map(async (path) => {
            const t0 = Date.now();
            const status = await api(origin, KEY, 'GET', path).then(
              (r) => String(r.status),
              (err: Error) => `error ${err.name}`,
            );
            seen.set(status, (seen.get(status) ?? 0) + 1);
            slowest = Math.max(slowest, Date.now() - t0);
          }),
        ),
      );
      await sleep(250);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      say(`reads: the slowest answer took ${slowest} ms`);
      return seen;
    },
  };
}

const REDIS_DOWN_MS = Number(process.env.PAGEGRADE_CLUSTER_REDIS_DOWN_MS ?? 30_000);

test('Redis away for 30 s mid-crawl: the API answers reads, the workers reconnect, the crawl finishes', async () => {
  const id = await startCrawl('e', PAGES);
  await waitPages('e', Math.round(PAGES / 4));
  const redis = c.procs.get('redis')!;
  await redis.stop(10_000); // SIGTERM: Redis writes its append-only file and exits
  const downAt = Date.now();
  const reads = pollReads(id);
  await sleep(REDIS_DOWN_MS);
  const during = await reads.stop();
  const pagesDuring = pageEntries(await log(c.web), 'e').filter((e) => e.start > downAt + 2000).length;
  c.startRedis();
  const upAt = Date.now();
  say(
    `Redis down ${((upAt - downAt) / 1000).toFixed(1)} s: reads through the API hosts answered ${JSON.stringify(Object.fromEntries(during))}; pages requested meanwhile: ${pagesDuring}`,
  );
  const firstAfter = await waitPages('e', pageEntries(await log(c.web), 'e').length + 1, 60_000);
  const resumed = Math.min(...firstAfter.filter((e) => e.start >= upAt).map((e) => e.start)) - upAt;
  const entries = await assertOnce('e', id, PAGES);
  say(
    `workers resumed ${resumed} ms after Redis was back; crawl done: ${entries.length} requests for ${PAGES} pages (${repeated(entries)} pages requested twice); by host: ${perHost(entries)}`,
  );
  assert.deepEqual([...during.keys()], ['200'], 'every read answered 200 while Redis was away');
  for (const w of ['w1', 'w2', 'w3']) assert.ok(c.procs.get(w)?.alive() ?? true, `${w} still running`);
});

test('PostgreSQL restarted mid-crawl: requests in flight get 503 (never 500), the service recovers, nothing lost', async () => {
  const id = await startCrawl('f', PAGES, c.api2);
  await waitPages('f', Math.round(PAGES / 4));
  const reads = pollReads(id);
  await sleep(500);
  const postgres = c.procs.get('postgres')!;
  const downAt = Date.now();
  postgres.kill('SIGINT'); // fast shutdown: sessions ended, then a clean stop
  await postgres.exited;
  await sleep(2000);
  c.startPostgres();
  await c.waitForPostgres();
  const upAt = Date.now();
  await sleep(3000);
  const seen = await reads.stop();
  say(
    `PostgreSQL down ${((upAt - downAt) / 1000).toFixed(1)} s: reads through the API hosts answered ${JSON.stringify(Object.fromEntries(seen))}`,
  );
  assert.ok(!seen.has('500'), 'no 500');
  assert.ok(
    [...seen.keys()].every((s) => s === '200' || s === '503'),
    `only 200 and 503: ${[...seen.keys()].join(', ')}`,
  );
  assert.ok(seen.has('503'), 'the requests while it was down were told 503');
  // recovered without a restart: both API hosts answer again
  for (const origin of [c.api1, c.api2])
    assert.equal((await api(origin, KEY, 'GET', `/api/v1/batches/${id}`)).status, 200);
  const entries = await assertOnce('f', id, PAGES);
  say(
    `crawl done: ${entries.length} requests for ${PAGES} pages (${repeated(entries)} pages requested twice); by host: ${perHost(entries)}`,
  );
  for (const p of ['api1', 'api2', 'w1', 'w2', 'w3'])
    assert.ok(c.procs.get(p)?.alive() ?? true, `${p} still running`);
  const stacks = ['api1', 'api2'].map(
    (p) =>
      (
        c.procs
          .get(p)!
          .output()
          .match(/"statusCode":500|unexpected error/g) ?? []
      ).length,
  );
  say(`API log lines of a 500: api1 ${stacks[0]}, api2 ${stacks[1]}`);
});

test('1,000 report schedules and 10 project crawl schedules due together run once each across the worker hosts', async () => {
  // (all three worker hosts: when this step runs alone, the first has not started them)
  if (!c.procs.get('w2')?.alive()) await c.startWorker('w2');
  // w3's clock 5 minutes ahead (libfaketime preloaded into its node): schedules still run once
  // per slot and leases hold (they read the database's clock, src/store/db-clock.ts)
  const w3 = c.procs.get('w3');
  if (w3?.alive()) {
    w3.kill('SIGTERM');
    for (let i = 0; i < 100 && w3.alive(); i++) await sleep(100);
  }
  const skewed = await c.startWorker(
    'w3',
    LIBFAKETIME ? { LD_PRELOAD: LIBFAKETIME, FAKETIME: '+5m', FAKETIME_DONT_FAKE_MONOTONIC: '1' } : {},
  );
  if (LIBFAKETIME) {
    for (let i = 0; i < 100 && !/clock is [\d.]+ s ahead/.test(skewed.output()); i++) await sleep(100);
    const said = /clock is ([\d.]+) s ahead/.exec(skewed.output());
    assert.ok(said, `w3 says its clock is ahead:\n${skewed.output().slice(-2000)}`);
    say(`w3 runs 5 minutes ahead (libfaketime): it measured its clock ${said[1]} s ahead of the database's`);
  } else if (process.env.PAGEGRADE_REQUIRE_FAKETIME === '1') {
    assert.fail('libfaketime is not installed (apt-get install -y faketime) and PAGEGRADE_REQUIRE_FAKETIME=1');
  } else say('libfaketime is not installed: w3 runs on the machine clock (apt-get install -y faketime)');
  // the reports: one crawl of SCHEDULED pages (one report per page)
  const seeded = await startCrawl('sched', SCHEDULED);
  await assertOnce('sched', seeded, SCHEDULED, 600_000);
  const reports = await c.sql<{ id: number }>('SELECT id FROM reports WHERE url LIKE $1 ORDER BY id', [
    `${c.web}/sched/%`,
  ]);
  assert.equal(reports.length, SCHEDULED);
  // a daily schedule on each, through both API hosts, 16 at a time
  const t0 = Date.now();
  const queue = [...reports];
  await Promise.all(
    Array.from({ length: 16 }, async (_, lane) => {
      for (let r = queue.shift(); r; r = queue.shift()) {
        const res = await api(lane % 2 ? c.api2 : c.api1, KEY, 'PUT', `/api/v1/reports/${r.id}/schedule`, {
          every: 'daily',
        });
        assert.equal(res.status, 201, JSON.stringify(res.body));
      }
    }),
  );
  // ten projects (the site under ten host names), each a crawl of PROJECT_PAGES pages, daily
  for (const [i, site] of c.sites.entries()) {
    const res = await fetch(`${i % 2 ? c.api2 : c.api1}/api/v1/projects/${new URL(site).hostname}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        start_url: `${site}/proj/`,
        max_pages: PROJECT_PAGES,
        schedule: { every: 'daily' },
      }),
    });
    assert.equal(res.status, 201, await res.text());
  }
  say(`${SCHEDULED} report schedules and 10 project schedules set in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const [{ n: total }] = (await c.sql<{ n: string }>('SELECT count(*) AS n FROM schedules')) as [{ n: string }];
  assert.equal(Number(total), SCHEDULED + 10);

  // all due at once: their next run a minute ago
  const logBefore = (await log(c.web)).length;
  const dueAt = Date.now();
  await c.sql('UPDATE schedules SET next_run_at = $1', [new Date(dueAt - 60_000).toISOString()]);
  const deadline = Date.now() + 600_000;
  let ran = 0;
  for (;;) {
    const [row] = await c.sql<{ n: string }>(
      'SELECT count(*) AS n FROM schedules WHERE last_run_at IS NOT NULL AND claimed_slot IS NULL',
    );
    ran = Number(row!.n);
    if (ran === SCHEDULED + 10) break;
    if (Date.now() > deadline) throw new Error(`only ${ran} of ${SCHEDULED + 10} schedules ran in 600 s`);
    await sleep(500);
  }
  const ranIn = (Date.now() - dueAt) / 1000;

  // each report re-audited once by its schedule: run 2, its first run in the history, source schedule
  const runs = await c.sql<{ run_number: number; run_source: string; earlier: string }>(
    `SELECT r.run_number, r.run_source,
            (SELECT count(*) FROM report_runs rr WHERE rr.report_id = r.id) AS earlier
       FROM reports r WHERE r.url LIKE $1`,
    [`${c.web}/sched/%`],
  );
  const wrong = runs.filter((r) => r.run_number !== 2 || r.run_source !== 'schedule' || Number(r.earlier) !== 1);
  assert.deepEqual(wrong.slice(0, 5), [], `${wrong.length} reports not re-audited exactly once by their schedule`);
  const statuses = await c.sql<{ last_status: string; n: string }>(
    'SELECT last_status, count(*) AS n FROM schedules WHERE report_id IS NOT NULL GROUP BY last_status',
  );
  assert.deepEqual(
    statuses.map((s) => [s.last_status, Number(s.n)]),
    [['completed', SCHEDULED]],
  );
  // each project crawled once: one batch, started by its schedule, done
  const projectBatches = await c.sql<{ project: string; n: string }>(
    `SELECT b.project, count(*) AS n FROM batches b
       WHERE b.project IN (${c.sites.map((_, i) => `$${i + 1}`).join(', ')}) GROUP BY b.project`,
    c.sites.map((s) => new URL(s).hostname),
  );
  assert.equal(projectBatches.length, 10, JSON.stringify(projectBatches));
  assert.ok(projectBatches.every((p) => Number(p.n) === 1), JSON.stringify(projectBatches));
  const crawls = await c.sql<{ id: number; last_status: string }>(
    'SELECT last_batch_id AS id, last_status FROM schedules WHERE project_id IS NOT NULL',
  );
  assert.deepEqual(new Set(crawls.map((b) => b.last_status)), new Set(['started']));
  for (const b of crawls) {
    const done = await waitBatch(b.id, 120_000);
    assert.equal(done.status, 'done', JSON.stringify(done));
    assert.equal(done.progress.audited, PROJECT_PAGES, JSON.stringify(done.progress));
  }

  // the web host's view: who fetched what after the schedules came due
  const after = (await log(c.web)).slice(logBefore);
  const sched = pageEntries(after, 'sched');
  const perPage = new Map<string, number>();
  for (const e of sched) perPage.set(e.path, (perPage.get(e.path) ?? 0) + 1);
  const hosts = new Set(sched.map((e) => e.from));
  say(
    `${SCHEDULED + 10} schedules due together ran in ${ranIn.toFixed(1)} s: ${sched.length} requests for ${perPage.size} scheduled pages (${[...perPage.values()].filter((n) => n > 1).length} fetched more than once); by host: ${perHost(sched)}; projects: 10 crawls of ${PROJECT_PAGES} pages, each done`,
  );
  assert.equal(perPage.size, SCHEDULED, 'every scheduled page fetched');
  for (const w of ['w1', 'w2', 'w3'] as const)
    assert.ok(hosts.has(c.address(w)), `${w} ran some of the schedules (by host: ${perHost(sched)})`);
});
