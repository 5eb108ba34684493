// Lighthouse 12 as the benchmarks run it (bench/render.ts, bench/cli-start.ts): not a dependency
// of the project, installed apart (mkdir -p /work/lh && cd /work/lh && npm init -y &&
// npm i lighthouse@12.8.2), found by --lighthouse PATH or PAGEGRADE_LIGHTHOUSE. Its Chromium is
// started with the renderer's headless flags, a DNS that resolves nothing but 127.0.0.1 and a
// proxy that is a sink (it reads the first line of a request and closes), so that it reaches no
// other address on its own (the network rule).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createNetServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { HEADLESS_ARGS } from '../../src/render/browser.js';

export const DEFAULT_LIGHTHOUSE = '/work/lh/node_modules/lighthouse/cli/index.js';

export interface Sink {
  port: number;
  /** connections the sink was asked for (each one a request that tried to leave loopback) */
  connections(): number;
  /** the first line of each of the first 200 of them */
  lines: string[];
  close(): Promise<void>;
}

/** A proxy that forwards nothing: every request Chromium sends through it is read and dropped. */
export async function startSink(): Promise<Sink> {
  let connections = 0;
  const lines: string[] = [];
  const sockets = new Set<Socket>();
  const server = createNetServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
    socket.once('data', (chunk: Buffer) => {
      if (lines.length < 200) lines.push(chunk.toString('latin1').split('\r\n')[0]!);
      socket.destroy();
    });
    socket.setTimeout(1000, () => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    connections: () => connections,
    lines,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Chromium's flags for Lighthouse: the renderer's, loopback-only DNS, the sink as its proxy. */
export function lighthouseChromeFlags(sinkPort: number): string[] {
  return [
    ...HEADLESS_ARGS,
    '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
    `--proxy-server=http://127.0.0.1:${sinkPort}`,
  ];
}

/** A flag for Lighthouse's --chrome-flags (space-delimited; a value with spaces is quoted). */
export function quoteFlag(flag: string): string {
  const eq = flag.indexOf('=');
  return eq !== -1 && flag.includes(' ') ? `${flag.slice(0, eq + 1)}"${flag.slice(eq + 1)}"` : flag;
}

export interface LighthouseRun {
  /** spawn → exit, Node's start included */
  ms: number;
  /** Lighthouse's own timing.total */
  totalMs: number;
  runtimeError?: string;
  /** the report's network-requests items as [url, status, failed, transferSize] */
  requests: { url: string; statusCode?: number; failed?: boolean; transferSize?: number }[];
}

/**
 * One Lighthouse run of `url`, `seo,best-practices` plus the network list (to check that no
 * request left loopback), JSON to a temporary file. `port`: a Chromium already listening for
 * DevTools there (else Lighthouse launches its own with `chromeFlags`). `onSpawn` gets the
 * process's id (for memory sampling). Throws with the exit code and stderr when it fails.
 */
export async function runLighthouse(o: {
  lighthouse: string;
  chromium: string;
  url: string;
  chromeFlags: string[];
  port?: number | null;
  onSpawn?: (pid: number) => void;
}): Promise<LighthouseRun> {
  const outDir = mkdtempSync(join(tmpdir(), 'pagegrade-lhout-'));
  const out = join(outDir, 'report.json');
  try {
    const args = [
      o.lighthouse,
      o.url,
      '--only-categories=seo,best-practices',
      // network-requests is not in these categories: asked for as well (onlyAudits adds to
      // onlyCategories) to check that no request left loopback
      '--only-audits=network-requests',
      '--output=json',
      `--output-path=${out}`,
      '--quiet',
      ...(o.port ? [`--port=${o.port}`] : [`--chrome-flags=${o.chromeFlags.map(quoteFlag).join(' ')}`]),
    ];
    const t0 = performance.now();
    const proc = spawn(process.execPath, args, {
      env: { ...process.env, CHROME_PATH: o.chromium },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    o.onSpawn?.(proc.pid!);
    let stderr = '';
    proc.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => proc.once('exit', resolve));
    const ms = performance.now() - t0;
    if (code !== 0) throw new Error(`${o.url}: exit ${code} ${stderr.slice(0, 300)}`);
    const report = JSON.parse(readFileSync(out, 'utf8')) as {
      runtimeError?: { code: string };
      timing?: { total: number };
      audits: Record<string, { details?: { items?: LighthouseRun['requests'] } }>;
    };
    return {
      ms,
      totalMs: report.timing?.total ?? NaN,
      runtimeError: report.runtimeError?.code,
      requests: report.audits['network-requests']?.details?.items ?? [],
    };
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

/** Requests of a run to a host other than 127.0.0.1 that got an answer (none may). */
export function leftLoopback(run: LighthouseRun): string[] {
  const out: string[] = [];
  for (const item of run.requests) {
    let u: URL;
    try {
      u = new URL(item.url);
    } catch {
      continue;
    }
    if (!/^https?:$/.test(u.protocol) || u.hostname === '127.0.0.1') continue;
    const status = item.statusCode ?? 0;
    // Chromium's own 307 "internal redirect" (an HSTS upgrade, no network: 0 bytes) is not one
    if (status >= 300 && status < 400 && !(item.transferSize ?? 0)) continue;
    if (status > 0 && !item.failed) out.push(item.url);
  }
  return out;
}
