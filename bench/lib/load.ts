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
  /** the server's CPU time per request of the measured run (µs), when `cpu` was given */
  cpuUs?: number;
}

export interface LoadOptions {
  /** one origin, or several to spread the connections over (e.g. two processes) */
  origins: string[];
  connections: number;
  durationS: number;
  warmupS: number;
  /** reads the server process's CPU time so far (µs): gives the run's CPU per request */
  cpu?: () => Promise<number>;
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
  const cpu0 = opts.cpu ? await opts.cpu() : 0;
  const results = await Promise.all(opts.origins.map((o) => runOne(o, target, per, opts.durationS)));
  const cpuUsed = opts.cpu ? (await opts.cpu()) - cpu0 : null;
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
    ...(cpuUsed !== null ? { cpuUs: cpuUsed / Math.max(1, requests) } : {}),
  };
}

const fmt = (n: number, digits = 1): string => (Number.isInteger(n) ? String(n) : n.toFixed(digits));

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** One query measured in interleaved rounds: API run, bare run, API, bare … */
export interface Rounds {
  name: string;
  /** the API's runs, in order */
  api: Measurement[];
  /** the bare route's runs, each right after the API run of the same index */
  bare: Measurement[];
}

/** What a query's rounds give: medians over the rounds (the ratio: the median of each round's ratio). */
export function summariseRounds(r: Rounds) {
  const ratios = r.api.map((a, i) => a.rps / r.bare[i]!.rps);
  const cpu = (ms: Measurement[]) =>
    ms.every((m) => m.cpuUs !== undefined) ? median(ms.map((m) => m.cpuUs!)) : null;
  return {
    p50: median(r.api.map((m) => m.p50)),
    p99: median(r.api.map((m) => m.p99)),
    worstP99: Math.max(...r.api.map((m) => m.p99)),
    rps: median(r.api.map((m) => m.rps)),
    bareRps: median(r.bare.map((m) => m.rps)),
    ratio: median(ratios),
    minRatio: Math.min(...ratios),
    maxRatio: Math.max(...ratios),
    apiCpuUs: cpu(r.api),
    bareCpuUs: cpu(r.bare),
    errors: r.api.reduce((n, m) => n + m.non2xx + m.errors, 0),
  };
}

/**
 * A markdown table of queries measured in interleaved rounds: medians over the rounds, the
 * median of the rounds' API/bare ratios (their range beside it), and CPU µs per request of the
 * API and of the bare route. The p99 target is judged on the median p99 (the worst round beside it).
 */
export function roundsTable(
  rows: Rounds[],
  p99TargetMs: number,
  ratioTargetOf: (name: string) => number,
): string {
  const head =
    '| query | p50 ms | p99 ms (worst round) | req/s | bare req/s | ratio to bare (range) | CPU µs/req | bare CPU µs/req | non-2xx | targets |\n' +
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---|';
  const lines = rows.map((r) => {
    const s = summariseRounds(r);
    const target = ratioTargetOf(r.name);
    const misses = [
      s.p99 > p99TargetMs ? `p99 > ${p99TargetMs} ms` : '',
      s.ratio < target ? `ratio < ${Math.round(target * 100)} %` : '',
      s.errors ? 'errors' : '',
    ].filter(Boolean);
    const pct = (x: number) => (x * 100).toFixed(0);
    const us = (x: number | null) => (x === null ? '–' : Math.round(x).toString());
    return `| ${r.name} | ${fmt(s.p50)} | ${fmt(s.p99)} (${fmt(s.worstP99)}) | ${Math.round(s.rps)} | ${Math.round(s.bareRps)} | ${pct(s.ratio)} % (${pct(s.minRatio)}–${pct(s.maxRatio)}) | ${us(s.apiCpuUs)} | ${us(s.bareCpuUs)} | ${s.errors} | ${misses.length ? 'missed: ' + misses.join(', ') : 'met'} |`;
  });
  return [head, ...lines].join('\n');
}
