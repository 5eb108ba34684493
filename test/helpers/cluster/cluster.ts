// The cluster of the cluster test (docs/testing.md, "Cluster test"; docs/scale.md): hosts in
// network namespaces on 10.77.0.0/24 (test/helpers/cluster/netns.ts) running
//   data  .10   its own PostgreSQL (initdb in a temporary folder) and Redis
//   api1  .11, api2 .12   the built service, PAGEGRADE_WORKER=0
//   w1–w3 .21–.23         `pagegrade worker` (bin/pagegrade.js, the built bundle)
//   web   .30   a generated site with a per-page latency (hosts.mjs site)
//   hook  .31   a webhook receiver (hosts.mjs hook)
// all configured by address. Leases are shortened (PAGEGRADE_BATCH_PAGE_LEASE_MS,
// PAGEGRADE_WEBHOOK_LEASE_MS) so that a lost host's work is taken over within seconds.
import { appendFileSync, chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import pg from 'pg';
import {
  createBridge,
  addAddress,
  createHost,
  execIn,
  killStarted,
  removeAll,
  runIn,
  type Host,
  type HostProcess,
} from './netns.js';

export const KEY = 'pgc_cluster_test_key_0123456789abcdef';
export const LATENCY_MS = Number(process.env.PAGEGRADE_CLUSTER_LATENCY_MS ?? 100);
/** the latency of the pages/s comparison's site (prefixes starting with `slow`) */
export const SLOW_LATENCY_MS = Number(process.env.PAGEGRADE_CLUSTER_SLOW_LATENCY_MS ?? 1500);
export const HOOK_DELAY_MS = 300;
/** per worker host: batch pages at once */
export const PAGE_SLOTS = 2;
export const PAGE_LEASE_MS = 4000;
export const WEBHOOK_LEASE_MS = 3000;

const ADDRESSES = {
  data: '10.77.0.10',
  api1: '10.77.0.11',
  api2: '10.77.0.12',
  w1: '10.77.0.21',
  w2: '10.77.0.22',
  w3: '10.77.0.23',
  web: '10.77.0.30',
  hook: '10.77.0.31',
} as const;
export type HostName = keyof typeof ADDRESSES;
/** the web host's other addresses (addAddress), 10.77.0.40 … 10.77.0.49 */
const SITE_ADDRESSES = Array.from({ length: 10 }, (_, i) => `10.77.0.${40 + i}`);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class Cluster {
  readonly dir = mkdtempSync(join(tmpdir(), 'pagegrade-cluster-'));
  readonly hosts = {} as Record<HostName, Host>;
  readonly procs = new Map<string, HostProcess>();
  readonly databaseUrl = `postgres://postgres@${ADDRESSES.data}:5432/pagegrade`;
  /** the services' URL: a session idle in a transaction (its host cut off) is ended after 3 s */
  readonly serviceDatabaseUrl = `${this.databaseUrl}?idle_in_transaction_session_timeout=3000`;
  readonly redisUrl = `redis://${ADDRESSES.data}:6379`;
  readonly web = `http://${ADDRESSES.web}:8080`;
  /** the web host's other addresses: the generated site under 10 more host names (10 projects) */
  readonly sites = SITE_ADDRESSES.map((a) => `http://${a}:8080`);
  readonly hook = `http://${ADDRESSES.hook}:8080`;
  readonly api1 = `http://${ADDRESSES.api1}:8080`;
  readonly api2 = `http://${ADDRESSES.api2}:8080`;
  pool: pg.Pool | null = null;
  private readonly pgData = join(this.dir, 'pg');

  constructor(readonly sitePages: number) {}

  address(h: HostName): string {
    return ADDRESSES[h];
  }

  async up(): Promise<void> {
    removeAll();
    createBridge();
    for (const [name, address] of Object.entries(ADDRESSES))
      this.hosts[name as HostName] = createHost(name, address);
    for (const a of SITE_ADDRESSES) addAddress(this.hosts.web, a);
    mkdirSync(this.pgData);
    chownSync(this.pgData, pgUid(), pgGid());
    chmodSync(this.dir, 0o755);
    execIn(
      this.hosts.data,
      ['initdb', '-D', this.pgData, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync'],
      'postgres',
    );
    appendFileSync(join(this.pgData, 'pg_hba.conf'), 'host all all 10.77.0.0/24 trust\n');
    this.startPostgres();
    this.startRedis();
    const hosts = new URL('./hosts.mjs', import.meta.url).pathname;
    this.start('web', 'web', [
      process.execPath,
      hosts,
      'site',
      [ADDRESSES.web, ...SITE_ADDRESSES].join(','),
      '8080',
      String(LATENCY_MS),
      String(this.sitePages),
      String(SLOW_LATENCY_MS),
    ]);
    this.start('hook', 'hook', [
      process.execPath,
      hosts,
      'hook',
      ADDRESSES.hook,
      '8080',
      String(HOOK_DELAY_MS),
    ]);
    await this.waitForPostgres();
    const admin = new pg.Client({ connectionString: this.databaseUrl.replace(/pagegrade$/, 'postgres') });
    await admin.connect();
    await admin.query('CREATE DATABASE pagegrade');
    await admin.end();
    this.pool = new pg.Pool({ connectionString: this.databaseUrl, max: 2 });
    this.pool.on('error', () => {});
    await Promise.all([this.startApi('api1'), this.startApi('api2')]);
  }

  /** Redis on the data host, with its append-only file in the temp folder (kept across restarts) */
  startRedis(): HostProcess {
    return this.start('redis', 'data', [
      'redis-server',
      '--bind',
      ADDRESSES.data,
      '--port',
      '6379',
      '--save',
      '',
      '--appendonly',
      'yes',
      '--appendfsync',
      'everysec',
      '--dir',
      this.dir,
      '--maxmemory-policy',
      'noeviction',
      '--protected-mode',
      'no',
    ]);
  }

  startPostgres(): HostProcess {
    return this.start(
      'postgres',
      'data',
      [
        'postgres',
        '-D',
        this.pgData,
        '-c',
        `listen_addresses=${ADDRESSES.data}`,
        '-c',
        'port=5432',
        '-c',
        `unix_socket_directories=${this.pgData}`,
        '-c',
        'fsync=off',
        '-c',
        'max_connections=200',
      ],
      'postgres',
    );
  }

  async waitForPostgres(timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const c = new pg.Client({
        connectionString: this.databaseUrl.replace(/pagegrade$/, 'postgres'),
        connectionTimeoutMillis: 1000,
      });
      c.on('error', () => {});
      try {
        await c.connect();
        await c.end();
        return;
      } catch (err) {
        await c.end().catch(() => {});
        if (Date.now() > deadline)
          throw new Error(`PostgreSQL not up: ${String(err)}\n${this.procs.get('postgres')?.output()}`);
        await sleep(200);
      }
    }
  }

  env(host: HostName, extra: Record<string, string> = {}): Record<string, string> {
    return {
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      DATABASE_URL: this.serviceDatabaseUrl,
      REDIS_URL: this.redisUrl,
      PAGEGRADE_BOOTSTRAP_KEY: KEY,
      PAGEGRADE_SESSION_SECRET: 'cluster-test-session-secret-0123456789abcdef',
      PAGEGRADE_ALLOW_PRIVATE_HOSTS: '1',
      PAGEGRADE_RATE_LIMIT: '1000000',
      PAGEGRADE_CRAWL_CONCURRENCY: '64',
      PAGEGRADE_CRAWL_DELAY_MS: '0',
      // the generated site links each page to ten more: a crawl capped at N pages would check the
      // 10 N others at its end, one at a time (docs/sites.md); the cluster tests the crawl itself
      PAGEGRADE_LINK_CHECKS: '0',
      PAGEGRADE_BATCH_MAX_PAGES: '10000',
      PAGEGRADE_JOB_CONCURRENCY: `batch.page=${PAGE_SLOTS}`,
      PAGEGRADE_BATCH_PAGE_LEASE_MS: String(PAGE_LEASE_MS),
      PAGEGRADE_WEBHOOK_LEASE_MS: String(WEBHOOK_LEASE_MS),
      PAGEGRADE_WEBHOOK_RETRY_MS: '1000',
      PAGEGRADE_WEBHOOK_TIMEOUT_MS: '5000',
      PAGEGRADE_FETCH_TIMEOUT_MS: '5000',
      PAGEGRADE_WORKER_SHUTDOWN_MS: '2000',
      PAGEGRADE_HOST_LABEL: host,
      ...extra,
    };
  }

  start(
    label: string,
    host: HostName,
    command: string[],
    user?: string,
    env?: Record<string, string>,
  ): HostProcess {
    const p = runIn(this.hosts[host], label, command, {
      dir: this.dir,
      ...(user ? { user } : {}),
      ...(env ? { env } : {}),
    });
    this.procs.set(label, p);
    return p;
  }

  async startApi(name: 'api1' | 'api2'): Promise<HostProcess> {
    const p = this.start(
      name,
      name,
      [process.execPath, 'dist/server.js'],
      undefined,
      this.env(name, {
        HOST: ADDRESSES[name],
        PORT: '8080',
        PAGEGRADE_WORKER: '0',
        PAGEGRADE_PUBLIC_URL: `http://${ADDRESSES[name]}:8080`,
      }),
    );
    await waitHttp(`http://${ADDRESSES[name]}:8080/healthz`, p);
    return p;
  }

  /** `pagegrade worker` on the host; resolves once its start-up line is printed (or after 10 s). */
  async startWorker(
    name: 'w1' | 'w2' | 'w3',
    extra: Record<string, string> = {},
    prefix: string[] = [],
  ): Promise<HostProcess> {
    const p = this.start(
      name,
      name,
      [...prefix, process.execPath, 'bin/pagegrade.js', 'worker'],
      undefined,
      this.env(name, { LOG_LEVEL: 'info', ...extra }),
    );
    const deadline = Date.now() + 20_000;
    while (!/workers started/.test(p.output()) && Date.now() < deadline) {
      if (!p.alive()) throw new Error(`worker ${name} exited:\n${p.output()}`);
      await sleep(100);
    }
    return p;
  }

  async sql<T = Record<string, unknown>>(text: string, values: unknown[] = []): Promise<T[]> {
    return (await this.pool!.query(text, values)).rows as T[];
  }

  async down(keepDir = false): Promise<void> {
    await this.pool?.end().catch(() => {});
    for (const p of this.procs.values()) p.kill('SIGKILL');
    killStarted();
    await sleep(200);
    removeAll();
    if (!keepDir) rmSync(this.dir, { recursive: true, force: true });
  }
}

function pgUid(): number {
  return Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
}
function pgGid(): number {
  return Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
}

async function waitHttp(url: string, p: HostProcess, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!p.alive()) throw new Error(`${p.label} exited before it answered:\n${p.output()}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(1000) });
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {
      // not yet
    }
    if (Date.now() > deadline) throw new Error(`${url} not up in ${timeoutMs} ms:\n${p.output()}`);
    await sleep(150);
  }
}
