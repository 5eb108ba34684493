// Prometheus metrics (prom-client), process-wide: the HTTP layer, the audits, the fetcher's
// failures, the rate limit, and — read when scraped — the database pool and the job queue,
// plus prom-client's default process metrics. Served at GET /metrics when PAGEGRADE_METRICS=1
// (src/http/plugins/metrics.ts); counting costs a few increments whether served or not.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { QueueCounts } from './contract/jobs.js';

export const registry = new Registry();
collectDefaultMetrics({ register: registry });

const seconds = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export const httpRequests = new Counter({
  name: 'pagegrade_http_requests_total',
  help: 'HTTP requests answered, by method, route (the pattern, e.g. /api/v1/reports/:id) and status.',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [registry],
});

export const httpDuration = new Histogram({
  name: 'pagegrade_http_request_duration_seconds',
  help: 'Time to answer an HTTP request, by method, route and status.',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: seconds,
  registers: [registry],
});

export const audits = new Counter({
  name: 'pagegrade_audits_total',
  help: 'Page audits, by result: good, decent, bad, or failed (the page could not be fetched).',
  labelNames: ['result'] as const,
  registers: [registry],
});

export const auditDuration = new Histogram({
  name: 'pagegrade_audit_duration_seconds',
  help: 'Time to fetch and audit a page, by result.',
  labelNames: ['result'] as const,
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 30, 60],
  registers: [registry],
});

export const fetchFailures = new Counter({
  name: 'pagegrade_fetch_failures_total',
  help: "Pages that could not be fetched, by the fetcher's reason code (e.g. dns, timeout, blocked_address).",
  labelNames: ['reason'] as const,
  registers: [registry],
});

export const rateLimitRefusals = new Counter({
  name: 'pagegrade_rate_limit_refusals_total',
  help: 'API requests refused with 429 by the per-key rate limit.',
  registers: [registry],
});

export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

/** What the scrape reads: set by the app that serves /metrics (src/app.ts). */
export const sources: {
  dbPool: (() => PoolStats) | null;
  queue: { counts(): Promise<Record<string, QueueCounts>> } | null;
} = { dbPool: null, queue: null };

new Gauge({
  name: 'pagegrade_db_pool_connections',
  help: "The database pool's connections by state: total, idle, and waiting (requests waiting for one). SQLite: one connection.",
  labelNames: ['state'] as const,
  registers: [registry],
  collect() {
    const s = sources.dbPool?.();
    if (!s) return;
    this.set({ state: 'total' }, s.total);
    this.set({ state: 'idle' }, s.idle);
    this.set({ state: 'waiting' }, s.waiting);
  },
});

new Gauge({
  name: 'pagegrade_queue_jobs',
  help: "Jobs in the job engine's queue, by kind and state (waiting, active, delayed, …).",
  labelNames: ['kind', 'state'] as const,
  registers: [registry],
  async collect() {
    if (!sources.queue) return;
    this.reset();
    let counts: Record<string, QueueCounts>;
    try {
      counts = await sources.queue.counts();
    } catch {
      return; // the queue's store is unreachable: no figures this scrape
    }
    for (const [kind, states] of Object.entries(counts))
      for (const [state, n] of Object.entries(states)) this.set({ kind, state }, n);
  },
});
