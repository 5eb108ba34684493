// The LISTEN/NOTIFY change bus end to end, as deployed on PostgreSQL without Redis: the service
// with no workers (PAGEGRADE_WORKER=0) and `pagegrade worker` in another process, one fresh
// database. A crawl of a slow loopback site is worked in the worker process; the events stream
// served by the web process pushes its progress as pages are audited, far more often than the
// 2 s fallback alone would (src/store/pg-changes.ts; the bus itself: pg-changes.test.ts).
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.js';
import { postgresDialect } from '../helpers/db.js';
import { api, ROOT, startService, type ServiceProcess } from '../helpers/service-process.js';
import { createTempDatabase, randomId, type TempDatabase } from '../helpers/services.js';

const KEY = `pg_${randomId()}${randomId()}${randomId()}`;
const bin = fileURLToPath(new URL('../../bin/pagegrade.js', import.meta.url));
const PAGES = 12;
const LATENCY_MS = 150;

/** PAGES pages on 127.0.0.1 in a chain (each links to the next), answering after LATENCY_MS. */
async function chainSite(): Promise<FixtureServer> {
  const site = await startFixtureServer();
  for (let i = 0; i < PAGES; i++) {
    const next = i + 1 < PAGES ? `<a href="/p/${i + 1}">Next</a>` : '';
    site.route(i === 0 ? '/' : `/p/${i}`, (_req, res) => {
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(
          `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Page ${i} of the chain</title></head><body><h1>Page ${i}</h1><p>Words about page ${i}.</p>${next}</body></html>`,
        );
      }, LATENCY_MS);
    });
  }
  return site;
}

describe(
  'live batch progress across processes on PostgreSQL without Redis',
  { skip: postgresDialect.skip },
  () => {
    let database: TempDatabase;
    let site: FixtureServer;
    let web: ServiceProcess;
    let worker: ChildProcess;
    let workerOut = '';

    before(async () => {
      database = await createTempDatabase();
      site = await chainSite();
      const env = {
        DATABASE_URL: database.url,
        PAGEGRADE_BOOTSTRAP_KEY: KEY,
        PAGEGRADE_ALLOW_PRIVATE_HOSTS: '1',
        PAGEGRADE_RATE_LIMIT: '0',
        PAGEGRADE_JOB_POLL_MS: '100',
        PAGEGRADE_CRAWL_DELAY_MS: '0',
        PAGEGRADE_CRAWL_CONCURRENCY: '1',
      };
      web = await startService({ ...env, PAGEGRADE_WORKER: '0' }, 90_000);
      worker = spawn(process.execPath, [bin, 'worker'], {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'info', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      worker.stdout!.on('data', (d: Buffer) => (workerOut += d.toString()));
      worker.stderr!.on('data', (d: Buffer) => (workerOut += d.toString()));
      const deadline = Date.now() + 90_000;
      while (!workerOut.includes('workers started')) {
        if (Date.now() > deadline || worker.exitCode !== null)
          throw new Error(`worker not started:\n${workerOut}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    });

    after(async () => {
      if (worker && worker.exitCode === null) {
        worker.kill('SIGTERM');
        await new Promise((r) => worker.once('exit', r));
      }
      await web?.stop();
      await site?.close();
      await database?.drop();
    });

    test(
      'the web process streams the progress the worker makes, pushed, not polled',
      { timeout: 120_000 },
      async () => {
        const created = await api(web.origin, KEY, 'POST', '/api/v1/batches', {
          url: `${site.origin}/`,
          mode: 'crawl',
          max_pages: String(PAGES),
          max_depth: '50',
        });
        assert.equal(created.status, 202, JSON.stringify(created.body));
        const id = (created.body as { data: { id: number } }).data.id;
        const res = await fetch(`${web.origin}/api/v1/batches/${id}/events`, {
          headers: { authorization: `Bearer ${KEY}` },
          signal: AbortSignal.timeout(100_000),
        });
        assert.equal(res.status, 200);
        // the events as they arrive: the audited count of each, and when it came
        const progress: { audited: number; at: number }[] = [];
        let ended = false;
        let buffer = '';
        const decoder = new TextDecoder();
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          buffer += decoder.decode(chunk, { stream: true });
          let cut: number;
          while ((cut = buffer.indexOf('\n\n')) !== -1) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            const event = /^event: (\w+)/m.exec(block)?.[1];
            const data = /^data: (.*)$/m.exec(block)?.[1];
            if (!event || !data) continue;
            const batch = JSON.parse(data) as { status: string; progress: { audited: number } };
            if (event === 'progress')
              progress.push({ audited: batch.progress.audited, at: performance.now() });
            if (event === 'end') {
              ended = true;
              assert.equal(batch.status, 'done');
              assert.equal(batch.progress.audited, PAGES);
            }
          }
          if (ended) break;
        }
        assert.ok(ended, 'the stream ended with the batch');
        assert.ok(!workerOut.includes('"level":50'), `no error in the worker:\n${workerOut}`);
        // pages are audited one after another (about LATENCY_MS each); polled every 2 s, the stream
        // would show a few of the counts; pushed, it shows nearly every one
        const counts = new Set(progress.map((p) => p.audited));
        assert.ok(
          counts.size >= PAGES - 2,
          `audited counts seen: ${[...counts].join(', ')} (${progress.length} events)`,
        );
        // and the new counts came well within the fallback (polled every 2 s, the gaps would be
        // about 2 s each): the median gap, so that one slow moment of a loaded machine (a gap of
        // 1.6 s was seen at a load average of 20) does not decide
        const gaps = progress.slice(1).map((p, i) => p.at - progress[i]!.at);
        const median = [...gaps].sort((x, y) => x - y)[Math.floor(gaps.length / 2)]!;
        assert.ok(median < 1_000, `gaps between events: ${gaps.map(Math.round).join(', ')} ms (median ${median})`);
      },
    );
  },
);
