#!/usr/bin/env node
// `npm run test:cluster`: the cluster test (docs/testing.md, "Cluster test") — the built service
// on hosts made of network namespaces (test/cluster/*.cluster.ts; the normal runner,
// scripts/run-tests.mjs, runs *.test.ts only and never these).
//
// Where namespaces cannot be made (not root, no iproute2, no `ip netns add`) or PostgreSQL's
// initdb / redis-server are missing, it prints "skipped: <reason>" and exits 0. It removes every
// `pgc-` namespace and the bridge before it starts (a crashed earlier run's) and after it ends,
// whatever happened; the test itself kills the processes it started and removes its temp folder.
// Arguments are passed to node --test (e.g. --test-name-pattern=cut). The run is stopped after PAGEGRADE_CLUSTER_TIMEOUT_MS (default 15 min).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
process.chdir(root);

function skip(reason) {
  console.log(`skipped: ${reason}`);
  process.exit(0);
}

const has = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;

if (process.platform !== 'linux') skip(`network namespaces are Linux only (this is ${process.platform})`);
if (process.getuid?.() !== 0)
  skip('not root: making network namespaces and veth pairs needs root (CAP_SYS_ADMIN, CAP_NET_ADMIN)');
if (!has('ip')) skip('iproute2 is not installed (no `ip` command)');
for (const cmd of ['initdb', 'postgres', 'redis-server', 'setpriv']) {
  if (!has(cmd)) skip(`${cmd} is not on PATH (the data host runs its own PostgreSQL and Redis)`);
}
if (spawnSync('id', ['-u', 'postgres'], { stdio: 'ignore' }).status !== 0)
  skip('no `postgres` user to run initdb and PostgreSQL as');

function cleanup() {
  let list = '';
  try {
    list = execFileSync('ip', ['netns', 'list'], { encoding: 'utf8' });
  } catch {
    return;
  }
  for (const ns of list
    .split('\n')
    .map((l) => l.split(' ')[0])
    .filter((n) => n?.startsWith('pgc-'))) {
    let pids = [];
    try {
      pids = execFileSync('ip', ['netns', 'pids', ns], { encoding: 'utf8' }).split('\n').filter(Boolean);
    } catch {
      // none
    }
    for (const pid of pids) {
      try {
        process.kill(Number(pid), 'SIGKILL');
      } catch {
        // gone
      }
    }
    spawnSync('ip', ['netns', 'del', ns], { stdio: 'ignore' });
  }
  // the outer veth ends a deleted namespace may leave behind for a while, then the bridge
  const links = spawnSync('ip', ['-o', 'link'], { encoding: 'utf8' }).stdout ?? '';
  for (const line of links.split('\n')) {
    const name = /^\d+: ([^@:]+)/.exec(line)?.[1];
    if (name?.startsWith('pgc-') && name !== 'pgc-br')
      spawnSync('ip', ['link', 'del', name], { stdio: 'ignore' });
  }
  spawnSync('ip', ['link', 'del', 'pgc-br'], { stdio: 'ignore' });
  // the test's temp folders (PostgreSQL's data, Redis's file, the logs): a killed run leaves its own
  for (const name of readdirSync(tmpdir())) {
    if (name.startsWith('pagegrade-cluster-') && process.env.PAGEGRADE_CLUSTER_KEEP !== '1')
      rmSync(join(tmpdir(), name), { recursive: true, force: true });
  }
}

cleanup();
const probe = spawnSync('ip', ['netns', 'add', 'pgc-probe'], { encoding: 'utf8' });
if (probe.status !== 0)
  skip(`cannot make a network namespace: ${(probe.stderr || probe.error?.message || '').trim()}`);
spawnSync('ip', ['netns', 'del', 'pgc-probe'], { stdio: 'ignore' });

// the cluster runs the built service
const build = spawnSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const files = readdirSync('test/cluster')
  .filter((f) => f.endsWith('.cluster.ts'))
  .sort()
  .map((f) => `test/cluster/${f}`);
const timeoutMs = Number(process.env.PAGEGRADE_CLUSTER_TIMEOUT_MS ?? 900_000);
const started = Date.now();
const child = spawn(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=1', ...process.argv.slice(2), ...files],
  {
    stdio: 'inherit',
    env: process.env,
  },
);
const timer = setTimeout(() => {
  console.error(`cluster test: stopped after ${timeoutMs} ms`);
  child.kill('SIGKILL');
}, timeoutMs);
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    child.kill('SIGKILL');
    cleanup();
    process.exit(130);
  });
}
child.on('exit', (code, signal) => {
  clearTimeout(timer);
  cleanup();
  console.log(
    `cluster test: ${code === 0 ? 'passed' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  process.exit(code ?? (signal ? 1 : 0));
});
