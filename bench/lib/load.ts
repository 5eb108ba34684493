// Load generation with autocannon's programmatic API: one measured run per target, each
// preceded by a short warm-up, and a table printer.
import autocannon from 'autocannon';

export interface Target {
  /** what the row is called in the tables */
  name: string;
  /** paths to request, picked round-robin (or one path) */
  paths: string[] | (() => string);
  headers?: Record<string, string>;
}

export interface Measurement {
  name: string;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
  rps: number;
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
}

export interface LoadOptions {
  /** one origin, or several to spread the connections over (e.g. two processes) */
  origins: string[];
  connections: number;
  durationS: number;
  warmupS: number;
}

async function runOne(
  origin: string,
  target: Target,
  connections: number,
  durationS: number,
): Promise<autocannon.Result> {
  let i = 0;
  const next =
    typeof target.paths === 'function'
      ? target.paths
      : (): string => {
          const list = target.paths as string[];
          return list[i++ % list.length]!;
        };
  return autocannon({
    url: origin,
    connections,
    duration: durationS,
    pipelining: 1,
    timeout: 10,
    headers: target.headers ?? {},
    requests: [
      {
        method: 'GET',
        setupRequest: (req) => ({ ...req, path: next() }),
      },
    ],
  });
}

/**
 * Measures a target: a warm-up run (not recorded), then the measured one. With several
 * origins the connections are split over them and the runs go in parallel; the figures are
 * combined (req/s summed; latency percentiles as the worst of the origins', a conservative
 * choice since histograms cannot be merged from the summaries).
 */
export async function measure(target: Target, opts: LoadOptions): Promise<Measurement> {
  const per = Math.max(1, Math.floor(opts.connections / opts.origins.length));
  if (opts.warmupS > 0) {
    await Promise.all(opts.origins.map((o) => runOne(o, target, per, opts.warmupS)));
  }
  const results = await Promise.all(opts.origins.map((o) => runOne(o, target, per, opts.durationS)));
  const worst = (f: (r: autocannon.Result) => number): number => Math.max(...results.map(f));
  const sum = (f: (r: autocannon.Result) => number): number => results.reduce((s, r) => s + f(r), 0);
  const requests = sum((r) => r.requests.total);
  return {
    name: target.name,
    p50: worst((r) => r.latency.p50),
    p90: worst((r) => r.latency.p90),
    p99: worst((r) => r.latency.p99),
    max: worst((r) => r.latency.max),
    mean: sum((r) => r.latency.mean * r.requests.total) / Math.max(1, requests),
    rps: sum((r) => r.requests.total / r.duration),
    requests,
    non2xx: sum((r) => r.non2xx),
    errors: sum((r) => r.errors),
    timeouts: sum((r) => r.timeouts),
  };
}

const fmt = (n: number, digits = 1): string => (Number.isInteger(n) ? String(n) : n.toFixed(digits));

/** A markdown table of query measurements, each with its bare-route twin. */
export function table(
  rows: { query: Measurement; bare: Measurement }[],
  p99TargetMs: number,
  ratioTarget: number,
): string {
  const head =
    '| query | p50 ms | p99 ms | req/s | bare p50 ms | bare p99 ms | bare req/s | ratio to bare | non-2xx | targets |\n' +
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---|';
  const lines = rows.map(({ query: q, bare: b }) => {
    const ratio = q.rps / b.rps;
    const ok = q.p99 <= p99TargetMs && ratio >= ratioTarget && q.non2xx === 0 && q.errors === 0;
    const misses = [
      q.p99 > p99TargetMs ? `p99 > ${p99TargetMs} ms` : '',
      ratio < ratioTarget ? `ratio < ${Math.round(ratioTarget * 100)} %` : '',
      q.non2xx || q.errors ? 'errors' : '',
    ].filter(Boolean);
    return `| ${q.name} | ${fmt(q.p50)} | ${fmt(q.p99)} | ${Math.round(q.rps)} | ${fmt(b.p50)} | ${fmt(b.p99)} | ${Math.round(b.rps)} | ${(ratio * 100).toFixed(0)} % | ${q.non2xx + q.errors} | ${ok ? 'met' : 'missed: ' + misses.join(', ')} |`;
  });
  return [head, ...lines].join('\n');
}
