// src/server.ts as a real process: config errors exit 78; first start prints the admin key once;
// /healthz and the API answer; SIGTERM lets an in-flight audit finish, then exits 0.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { goodPage, html, startFixtureServer, type FixtureServer } from '../helpers/fixture-server.js';
import { freePort } from '../helpers/service-process.js';
import { serverArgs } from '../helpers/cli.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface Proc {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

function start(env: Record<string, string>): Proc {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) => !/^(PORT|HOST|DATABASE_URL|REDIS_URL|LOG_LEVEL)$|^PAGEGRADE_/.test(k),
    ),
  );
  const child = spawn(process.execPath, serverArgs(), {
    cwd: ROOT,
    env: { ...clean, NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, stdout: () => out, stderr: () => err, exited };
}

// generous: starting tsx on a busy two-core machine can take a while
async function waitFor(
  cond: () => boolean | Promise<boolean>,
  what: string,
  p?: Proc,
  ms = 60_000,
): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await cond()) return;
    if (p && p.child.exitCode !== null)
      throw new Error(`exited ${p.child.exitCode} before ${what}: ${p.stderr()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}${p ? `: ${p.stderr()}` : ''}`);
}

describe('server process', () => {
  let dir: string;
  let fixture: FixtureServer;
  const running: Proc[] = [];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pagegrade-server-'));
    fixture = await startFixtureServer();
    fixture.route('/', html(goodPage(fixture.origin)));
    // a page that takes a while: the audit is in flight when SIGTERM arrives
    fixture.route('/slow', (_req, res) => {
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(goodPage(fixture.origin));
      }, 1000);
    });
  });
  after(async () => {
    for (const p of running) if (p.child.exitCode === null) p.child.kill('SIGKILL');
    await fixture.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('an invalid configuration exits 78 naming the variable', async () => {
    const p = start({ PORT: 'eighty', DATABASE_URL: `sqlite:${join(dir, 'never.db')}` });
    running.push(p);
    assert.equal(await p.exited, 78);
    assert.match(p.stderr(), /invalid configuration: PORT: must be a whole number/);
  });

  test('an unreachable database exits 1 with the reason', async () => {
    const p = start({
      PORT: String(await freePort()),
      DATABASE_URL: `postgres://127.0.0.1:${await freePort()}/none`,
    });
    running.push(p);
    assert.equal(await p.exited, 1);
    assert.match(p.stderr(), /cannot start/);
  });

  test('first start prints the key once; health, API; SIGTERM finishes in-flight requests and exits 0', async () => {
    const port = await freePort();
    const env = {
      PORT: String(port),
      DATABASE_URL: `sqlite:${join(dir, 'pagegrade.db')}`,
      PAGEGRADE_ALLOW_PRIVATE_HOSTS: '1',
      PAGEGRADE_RATE_LIMIT: '100',
    };
    const base = `http://127.0.0.1:${port}`;
    const p = start(env);
    running.push(p);
    await waitFor(() => /API key \(shown once\):\n(\S+)\n/.test(p.stdout()), 'the key', p);
    const key = /Created user admin\. API key \(shown once\):\n(\S+)\n/.exec(p.stdout())![1]!;
    assert.ok(key.length >= 24);
    // a block of its own between the JSON log lines: a blank line and a rule on each side (the
    // block may come before any log line: then its blank line opens the output)
    const block = /(?:^|\n)\n(=+)\n(?:[^{\n][^\n]*\n)+\1\n\n/.exec(p.stdout());
    assert.ok(block, `the key as a block of plain lines between rules:\n${p.stdout()}`);
    assert.ok(block[0].includes(`\n${key}\n`));
    assert.match(block[0], new RegExp(`Sign in at http://127\\.0\\.0\\.1:${port}/login`));

    const health = await fetch(`${base}/healthz`);
    assert.equal(health.status, 200);
    assert.deepEqual(await health.json(), { status: 'ok' });

    const auth = { authorization: `Bearer ${key}` };
    const list = await fetch(`${base}/api/v1/reports`, { headers: auth });
    assert.equal(list.status, 200);
    assert.equal(list.headers.get('x-ratelimit-limit'), '100');
    assert.equal(((await list.json()) as { meta: { total: number } }).meta.total, 0);

    // logs are JSON lines with request ids
    const lines = p
      .stdout()
      .split('\n')
      .filter((l) => l.startsWith('{'));
    assert.ok(lines.some((l) => (JSON.parse(l) as { reqId?: string }).reqId));

    // an audit in flight when SIGTERM arrives still completes
    const inflight = fetch(`${base}/api/v1/reports`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' },
      body: `url=${encodeURIComponent(`${fixture.origin}/slow`)}`,
    });
    await waitFor(() => fixture.requests.includes('/slow'), 'the audit to start');
    p.child.kill('SIGTERM');
    const res = await inflight;
    assert.equal(res.status, 201);
    assert.equal(await p.exited, 0);
    assert.match(p.stdout(), /shutting down/);
    await assert.rejects(fetch(`${base}/healthz`), 'no longer listening');

    // a second start on the same database prints no key, and the stored report is there
    const again = start(env);
    running.push(again);
    await waitFor(
      async () => (await fetch(`${base}/healthz`).catch(() => null))?.status === 200,
      'the second start',
      again,
    );
    assert.doesNotMatch(again.stdout(), /shown once/);
    const stored = await fetch(`${base}/api/v1/reports`, { headers: auth });
    assert.equal(((await stored.json()) as { meta: { total: number } }).meta.total, 1);
    again.child.kill('SIGINT');
    assert.equal(await again.exited, 0);
  });

  test('PAGEGRADE_BOOTSTRAP_KEY fixes the first key', async () => {
    const port = await freePort();
    const fixed = 'pg_fixed-bootstrap-key-for-scripts-0123456789';
    const p = start({
      PORT: String(port),
      DATABASE_URL: `sqlite:${join(dir, 'fixed.db')}`,
      PAGEGRADE_BOOTSTRAP_KEY: fixed,
    });
    running.push(p);
    await waitFor(() => p.stdout().includes('shown once'), 'the key', p);
    assert.ok(p.stdout().includes(`\n${fixed}\n`));
    const res = await fetch(`http://127.0.0.1:${port}/api/v1/projects`, {
      headers: { authorization: `Bearer ${fixed}` },
    });
    assert.equal(res.status, 200);
    p.child.kill('SIGTERM');
    assert.equal(await p.exited, 0);
  });

  test("the V8 heap's growth: PAGEGRADE_API_HEAP_GROWTH when the process serves the API only, the workers' when it runs them", async () => {
    const growth = async (env: Record<string, string>, file: string) => {
      const port = await freePort();
      const p = start({ PORT: String(port), DATABASE_URL: `sqlite:${join(dir, file)}`, ...env });
      running.push(p);
      await waitFor(() => p.stdout().includes('heapGrowthPercent'), 'the heap line', p);
      const line = p
        .stdout()
        .split('\n')
        .find((l) => l.includes('heapGrowthPercent'))!;
      p.child.kill('SIGTERM');
      assert.equal(await p.exited, 0);
      return (JSON.parse(line) as { heapGrowthPercent: number }).heapGrowthPercent;
    };
    assert.equal(await growth({ PAGEGRADE_WORKER: '0', PAGEGRADE_API_HEAP_GROWTH: '35' }, 'heap-api.db'), 35);
    assert.equal(await growth({ PAGEGRADE_WORKER: '0' }, 'heap-api.db'), 20, 'the default');
    assert.equal(
      await growth({ PAGEGRADE_API_HEAP_GROWTH: '35', PAGEGRADE_WORKER_HEAP_GROWTH: '45' }, 'heap-both.db'),
      45,
    );
  });
});
