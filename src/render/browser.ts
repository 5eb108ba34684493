// Rendered audits: one shared headless Chromium (playwright-core on Debian's /usr/bin/chromium),
// a fresh browser context per page, a concurrency limit in front of it, per-page budgets (time,
// requests, bytes). The browser has no network of its own:
//   - every request is intercepted (context.route) and sent by GuardedNetwork through the
//     fetcher's address guard, or refused;
//   - Chromium's own proxy is an in-process sink that accepts and closes every connection, with
//     loopback NOT bypassed (`<-loopback>`), so anything that escapes interception (preconnects,
//     workers) reaches the sink and nothing else;
//   - WebSockets are refused (routeWebSocket closes them unopened), service workers blocked,
//     downloads refused, permissions denied, popups and dialogs closed.
// The main document is not fetched again: the browser is given the raw snapshot's bytes, so
// both audits judge one visit. Decisions: docs/rendering.md.
import { setMaxListeners } from 'node:events';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import type * as PlaywrightCore from 'playwright-core';
import type { AxeViolation, RenderOutcome, RenderSuccess } from '../analyzer/types.js';
import type { PageSnapshot } from '../analyzer/types.js';
import { INSTALL_HINT } from './hint.js';
import { GuardedNetwork, type NetworkPolicy } from './network.js';

/** How Chromium is started on a server (no sandbox, no GPU, no background traffic of its own):
 * the renderer's base, and what bench/render.ts gives Lighthouse's Chromium for a fair match. */
export const HEADLESS_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export const CHROMIUM_ARGS = [
  ...HEADLESS_ARGS,
  '--dns-prefetch-disable',
  `--disable-features=${[
    // Chromium keeps only the last --disable-features, and playwright-core passes its own list
    // before ours: that list is repeated here (playwright-core 1.65), or ours would switch its
    // entries back on (the network time query and optimization hints then reached the sink)
    'AvoidUnnecessaryBeforeUnloadCheckSync',
    'DestroyProfileOnBrowserClose',
    'HttpsUpgrades',
    'HttpsFirstBalancedModeAutoEnable',
    'LensOverlay',
    'MediaRouter',
    'PaintHolding',
    'ThirdPartyStoragePartitioning',
    'AvoidCorsURLLoaderRestartOnRedirect',
    'OptimizationHints',
    'NetworkTimeServiceQuerying',
    'AimEnabled',
    'PreconnectToSearch',
    'TcpPortRandomizationWin',
    'msForceBrowserSignIn',
    'msEdgeUpdateLaunchServicesPreferredVersion',
    // ours
    'NetworkPrediction',
    'InterestFeedContentSuggestions',
  ].join(',')}`,
];

export { INSTALL_HINT };

export interface RendererOptions {
  executablePath: string;
  /** pages rendered at once (PAGEGRADE_RENDER_CONCURRENCY) */
  concurrency: number;
  /** per page: the whole visit, load to serialised DOM and axe (PAGEGRADE_RENDER_TIMEOUT_MS) */
  timeoutMs: number;
  /** per page: requests made by the page (PAGEGRADE_RENDER_MAX_REQUESTS) */
  maxRequests: number;
  /** per page: bytes received by the page's requests (PAGEGRADE_RENDER_MAX_BYTES) */
  maxBytes: number;
  network: NetworkPolicy;
  userAgent: string;
  /** after load, wait for network idle at most this long (within timeoutMs) */
  idleCapMs?: number;
  /** run axe-core in the page (default true) */
  axe?: boolean;
}

export type { RenderOutcome, RenderSuccess } from '../analyzer/types.js';

const requirePackage = createRequire(import.meta.url);
const AXE_SOURCE_PATH = requirePackage.resolve('axe-core/axe.min.js');
let axeSource: string | null = null;

/** Collects LCP, CLS and long tasks (→ TBT) from the browser's own performance entries. */
const PERF_SCRIPT = `(() => {
  const m = { lcp: null, cls: 0, tbt: 0 };
  Object.defineProperty(window, '__pagegradeLab', { value: m, enumerable: false });
  const obs = (type, fn) => { try { new PerformanceObserver((l) => l.getEntries().forEach(fn)).observe({ type, buffered: true }); } catch {} };
  obs('largest-contentful-paint', (e) => { m.lcp = e.startTime; });
  obs('layout-shift', (e) => { if (!e.hadRecentInput) m.cls += e.value; });
  obs('longtask', (e) => { m.tbt += Math.max(0, e.duration - 50); });
})();`;

/** A counting semaphore: at most `limit` holders; the others wait in order. */
class Slots {
  active = 0;
  maxActive = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(readonly limit: number) {}
  /** `signal`: a waiter that is aborted leaves the line (rejects with the reason) and holds no slot */
  async acquire(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw abortReason(signal);
    if (this.active < this.limit) {
      this.active++;
    } else {
      await new Promise<void>((resolve, reject) => {
        const onAbort = () => {
          const i = this.waiting.indexOf(take);
          if (i !== -1) this.waiting.splice(i, 1);
          reject(abortReason(signal!));
        };
        const take = () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        };
        this.waiting.push(take);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    }
    this.maxActive = Math.max(this.maxActive, this.active);
  }
  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.active--;
  }
  get queued(): number {
    return this.waiting.length;
  }
}

const abortReason = (signal: AbortSignal): Error =>
  signal.reason instanceof Error ? signal.reason : new Error('the render was stopped');

/** Every process under `pid` (children, grandchildren…), from /proc. */
export function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  let entries: string[] = [];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(name));
      children.set(ppid, list);
    } catch {
      // gone meanwhile
    }
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const c of children.get(p) ?? []) {
      out.push(c);
      walk(c);
    }
  };
  walk(pid);
  return out;
}

/** The process command (comm) of a pid, or null. */
function comm(pid: number): string | null {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return null;
  }
}

/** Chromium processes started by this process (any depth). */
export function chromiumProcesses(root = process.pid): number[] {
  return descendants(root).filter((p) => {
    const c = comm(p);
    return c !== null && /chrom/i.test(c);
  });
}

export class Renderer {
  private browser: Promise<Browser> | null = null;
  private sink: Server | null = null;
  private sinkPort = 0;
  private readonly sinkSockets = new Set<Socket>();
  private readonly slots: Slots;
  private closed = false;
  /** connections that reached the sink proxy (anything that escaped interception) */
  sinkConnections = 0;
  /** the first line of what each of them asked for (preconnects ask nothing) */
  readonly sinkRequests: string[] = [];

  constructor(readonly options: RendererOptions) {
    this.slots = new Slots(options.concurrency);
  }

  /** null when Chromium can be started, otherwise why not (with how to install it). */
  unavailable(): string | null {
    if (!existsSync(this.options.executablePath))
      return `Rendered audits need Chromium, which was not found at ${this.options.executablePath}. ${INSTALL_HINT}`;
    return null;
  }

  /** pages rendering now, the most seen at once, pages waiting for a slot */
  get stats() {
    return { active: this.slots.active, maxActive: this.slots.maxActive, queued: this.slots.queued };
  }

  private async startSink(): Promise<number> {
    if (this.sink) return this.sinkPort;
    const sink = createServer((socket) => {
      this.sinkConnections++;
      this.sinkSockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => this.sinkSockets.delete(socket));
      // the first line (CONNECT host:port / GET url) names what escaped; nothing is ever forwarded
      socket.once('data', (chunk: Buffer) => {
        if (this.sinkRequests.length < 100)
          this.sinkRequests.push(chunk.toString('latin1').split('\r\n')[0]!);
        socket.destroy();
      });
      socket.setTimeout(1000, () => socket.destroy());
    });
    await new Promise<void>((resolve, reject) => {
      sink.once('error', reject);
      sink.listen(0, '127.0.0.1', resolve);
    });
    sink.unref();
    this.sink = sink;
    this.sinkPort = (sink.address() as { port: number }).port;
    return this.sinkPort;
  }

  /** The shared browser, launched on first use and again after a crash. */
  private getBrowser(): Promise<Browser> {
    if (this.browser) return this.browser;
    const launching = (async () => {
      const port = await this.startSink();
      // required, not import()ed: a CommonJS package, and the bundled CLI runs as CommonJS
      // compiled by vm.Script, where a dynamic import() has no loader (scripts/build.mjs)
      const { chromium } = requirePackage('playwright-core') as typeof PlaywrightCore;
      const browser = await chromium.launch({
        executablePath: this.options.executablePath,
        args: [
          ...CHROMIUM_ARGS,
          `--proxy-server=http://127.0.0.1:${port}`,
          // no implicit bypass for localhost/loopback: everything goes to the sink
          '--proxy-bypass-list=<-loopback>',
        ],
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
      });
      browser.on('disconnected', () => {
        if (this.browser === launching) this.browser = null;
      });
      return browser;
    })();
    this.browser = launching;
    launching.catch(() => {
      if (this.browser === launching) this.browser = null;
    });
    return launching;
  }

  /** Starts Chromium now (a warm pool for benchmarks and servers that expect rendered audits). */
  async warm(): Promise<void> {
    await this.getBrowser();
  }

  /**
   * Renders the page of `snapshot` (its final URL, its bytes) and returns what the browser saw.
   * Never throws: a crash, timeout or launch failure is a RenderFailure with the reason.
   * `signal` (a job's) ends the wait for a slot of the pool, or the visit, as a failure.
   */
  async render(snapshot: PageSnapshot, signal?: AbortSignal): Promise<RenderOutcome> {
    const t0 = performance.now();
    try {
      // waiting for a slot ends when `signal` aborts (a batch page's job stopped at shutdown)
      await this.slots.acquire(signal);
    } catch (err) {
      const waited = Math.round(performance.now() - t0);
      return {
        ok: false,
        reason: `stopped while waiting for a browser slot: ${(err as Error).message}`,
        timings: { queue_ms: waited, total_ms: 0 },
      };
    }
    const queueMs = performance.now() - t0;
    const started = performance.now();
    try {
      if (this.closed) throw new Error('the renderer is closed');
      return await this.visit(snapshot, queueMs, started, signal);
    } catch (err) {
      return {
        ok: false,
        reason: err instanceof Error ? err.message.split('\n')[0]!.slice(0, 300) : String(err),
        timings: { queue_ms: Math.round(queueMs), total_ms: Math.round(performance.now() - started) },
      };
    } finally {
      this.slots.release();
    }
  }

  private async visit(
    snapshot: PageSnapshot,
    queueMs: number,
    started: number,
    outer?: AbortSignal,
  ): Promise<RenderSuccess> {
    const o = this.options;
    const budget = new AbortController();
    const timer = setTimeout(
      () => budget.abort(new Error(`the page did not render within ${o.timeoutMs} ms`)),
      o.timeoutMs,
    );
    const signal = outer ? AbortSignal.any([budget.signal, outer]) : budget.signal;
    // every subresource request in flight listens to the page's signal (undici, the DNS race, the
    // connector): a page with many at once is not a leak (it printed MaxListenersExceededWarning)
    setMaxListeners(0, signal);
    const net = new GuardedNetwork(
      o.network,
      { maxRequests: o.maxRequests, maxBytes: o.maxBytes },
      signal,
      o.userAgent,
    );
    let context: BrowserContext | null = null;
    let crashed: string | null = null;
    const aborted = new Promise<never>((_, reject) => {
      const fail = () =>
        reject(signal.reason instanceof Error ? signal.reason : new Error('the render was stopped'));
      if (signal.aborted) fail();
      else signal.addEventListener('abort', fail, { once: true });
    });
    aborted.catch(() => undefined);
    const race = <T>(p: Promise<T>): Promise<T> => {
      p.catch(() => undefined);
      return Promise.race([p, aborted]);
    };
    try {
      const browser = await race(this.getBrowser());
      const onDisconnect = () => {
        crashed = 'the browser stopped (crashed or was killed) during the render';
        budget.abort(new Error(crashed));
      };
      browser.once('disconnected', onDisconnect);
      try {
        context = await race(
          browser.newContext({
            serviceWorkers: 'block',
            acceptDownloads: false,
            permissions: [],
            userAgent: o.userAgent,
            viewport: { width: 1350, height: 940 },
            javaScriptEnabled: true,
          }),
        );
        const ctx = context;
        const consoleErrors: string[] = [];
        const failed: RenderSuccess['failed_requests'] = [];
        let mainServed = false;
        const mainUrl = snapshot.finalUrl;
        let page: Page | null = null;

        await ctx.routeWebSocket(/.*/, (ws) => {
          net.refused.push({ url: ws.url(), reason: 'WebSockets are refused in rendered audits' });
          void ws.close({ code: 1008, reason: 'refused by Pagegrade' }).catch(() => undefined);
        });
        await ctx.route('**/*', async (route: Route) => {
          const req = route.request();
          const url = req.url();
          try {
            if (!mainServed && req.isNavigationRequest() && stripHash(url) === stripHash(mainUrl)) {
              mainServed = true;
              const headers: Record<string, string> = {};
              for (const [k, v] of Object.entries(snapshot.headers)) {
                if (!['content-encoding', 'content-length', 'transfer-encoding', 'connection'].includes(k))
                  headers[k] = v;
              }
              await route.fulfill({ status: snapshot.status, headers, body: snapshot.body });
              return;
            }
            if (mainServed && page && req.isNavigationRequest() && req.frame() === page.mainFrame()) {
              // a script navigating the page away: the audit stays on the page as loaded
              net.refused.push({ url, reason: 'navigation away from the audited page' });
              await route.abort('blockedbyclient');
              return;
            }
            const res = await net.request(url, req.method(), await req.allHeaders(), req.postDataBuffer());
            await route.fulfill({ status: res.status, headers: res.headers, body: res.body });
          } catch (err) {
            const reason = err instanceof Error ? err.message.split('\n')[0]! : String(err);
            if (url !== mainUrl) failed.push({ url, status: null, reason });
            await route.abort('blockedbyclient').catch(() => undefined);
          }
        });
        ctx.on('page', (p) => {
          if (page !== null && p !== page) void p.close().catch(() => undefined);
        });
        await ctx.addInitScript({ content: PERF_SCRIPT });
        page = await race(ctx.newPage());
        page.on('crash', onDisconnect);
        page.on('dialog', (d) => void d.dismiss().catch(() => undefined));
        page.on('download', (d) => void d.cancel().catch(() => undefined));
        page.on('console', (m) => {
          if (m.type() === 'error' && consoleErrors.length < 50) consoleErrors.push(m.text().slice(0, 300));
        });
        page.on('pageerror', (e) => {
          if (consoleErrors.length < 50) consoleErrors.push(`Uncaught ${e.message.slice(0, 280)}`);
        });
        page.on('response', (r) => {
          if (r.status() >= 400 && r.request().resourceType() !== 'document' && failed.length < 100)
            failed.push({ url: r.url(), status: r.status(), reason: `HTTP ${r.status()}` });
        });

        const tLoad = performance.now();
        await race(page.goto(mainUrl, { waitUntil: 'load', timeout: o.timeoutMs }));
        const loadMs = performance.now() - tLoad;
        const tIdle = performance.now();
        const idleCap = Math.min(
          o.idleCapMs ?? 2000,
          Math.max(0, o.timeoutMs - (performance.now() - started)),
        );
        await race(page.waitForLoadState('networkidle', { timeout: Math.max(1, idleCap) })).catch((err) => {
          if (signal.aborted) throw err;
        });
        const idleMs = performance.now() - tIdle;
        const lab = await race(
          page.evaluate(() => {
            const m = (
              window as unknown as { __pagegradeLab?: { lcp: number | null; cls: number; tbt: number } }
            ).__pagegradeLab;
            return m ? { lcp: m.lcp, cls: m.cls, tbt: m.tbt } : null;
          }),
        );
        const html = await race(page.content());
        const finalUrl = page.url();
        const tAxe = performance.now();
        const axe = o.axe === false ? null : await race(runAxe(page));
        const axeMs = performance.now() - tAxe;
        return {
          ok: true,
          html,
          finalUrl,
          timings: {
            queue_ms: Math.round(queueMs),
            load_ms: Math.round(loadMs),
            idle_ms: Math.round(idleMs),
            axe_ms: Math.round(axeMs),
            total_ms: Math.round(performance.now() - started),
          },
          requests: net.requests,
          bytes: net.bytes,
          refused: net.refused.slice(0, 100),
          console_errors: consoleErrors,
          failed_requests: failed,
          lab: {
            lcp_ms: lab?.lcp == null ? null : Math.round(lab.lcp),
            cls: lab ? Math.round(lab.cls * 1000) / 1000 : null,
            tbt_ms: lab ? Math.round(lab.tbt) : null,
          },
          axe,
        };
      } finally {
        browser.off('disconnected', onDisconnect);
      }
    } catch (err) {
      if (crashed) throw new Error(crashed);
      throw err;
    } finally {
      clearTimeout(timer);
      if (context) await closeWithin(context, 5000);
      await net.close();
    }
  }

  /**
   * A PDF of a self-contained HTML document (a branded report: docs/rendering.md), printed by
   * the shared Chromium in a slot of the pool. The document is given with setContent and must
   * hold everything inline (styles, data: images): JavaScript is off, and every request the
   * page would make is refused and counted (`blocked`), so the browser makes no network
   * request at all. Throws on a crash or when the time budget runs out.
   */
  async pdf(
    document: string,
    options: { footerTemplate: string; headerTemplate?: string; signal?: AbortSignal },
  ): Promise<{ pdf: Buffer; blocked: string[] }> {
    await this.slots.acquire();
    const o = this.options;
    const budget = new AbortController();
    const timer = setTimeout(
      () => budget.abort(new Error(`the PDF was not printed within ${o.timeoutMs} ms`)),
      o.timeoutMs,
    );
    const signal = options.signal ? AbortSignal.any([budget.signal, options.signal]) : budget.signal;
    const aborted = new Promise<never>((_, reject) => {
      const fail = () =>
        reject(signal.reason instanceof Error ? signal.reason : new Error('the PDF was stopped'));
      if (signal.aborted) fail();
      else signal.addEventListener('abort', fail, { once: true });
    });
    aborted.catch(() => undefined);
    const race = <T>(p: Promise<T>): Promise<T> => {
      p.catch(() => undefined);
      return Promise.race([p, aborted]);
    };
    let context: BrowserContext | null = null;
    const blocked: string[] = [];
    try {
      if (this.closed) throw new Error('the renderer is closed');
      const browser = await race(this.getBrowser());
      const onDisconnect = () =>
        budget.abort(new Error('the browser stopped (crashed or was killed) while printing'));
      browser.once('disconnected', onDisconnect);
      try {
        context = await race(
          browser.newContext({
            serviceWorkers: 'block',
            acceptDownloads: false,
            permissions: [],
            javaScriptEnabled: false,
          }),
        );
        await context.routeWebSocket(/.*/, (ws) => {
          blocked.push(ws.url());
          void ws.close({ code: 1008, reason: 'refused by Pagegrade' }).catch(() => undefined);
        });
        await context.route('**/*', async (route: Route) => {
          if (blocked.length < 100) blocked.push(route.request().url());
          await route.abort('blockedbyclient').catch(() => undefined);
        });
        const page = await race(context.newPage());
        page.on('crash', onDisconnect);
        page.on('download', (d) => void d.cancel().catch(() => undefined));
        await race(page.setContent(document, { waitUntil: 'load', timeout: o.timeoutMs }));
        const pdf = await race(
          page.pdf({
            format: 'A4',
            printBackground: true,
            displayHeaderFooter: true,
            headerTemplate: options.headerTemplate ?? '<span></span>',
            footerTemplate: options.footerTemplate,
            margin: { top: '14mm', bottom: '18mm', left: '14mm', right: '14mm' },
          }),
        );
        return { pdf, blocked };
      } finally {
        browser.off('disconnected', onDisconnect);
      }
    } finally {
      clearTimeout(timer);
      if (context) await closeWithin(context, 5000);
      this.slots.release();
    }
  }

  /** Closes the browser (and kills any Chromium process left under this one). */
  async close(): Promise<void> {
    this.closed = true;
    const b = this.browser;
    this.browser = null;
    if (b) {
      const browser = await b.catch(() => null);
      if (browser) await Promise.race([browser.close().catch(() => undefined), sleep(5000)]);
    }
    this.killOrphans();
    for (const s of this.sinkSockets) s.destroy();
    if (this.sink) await new Promise<void>((resolve) => this.sink!.close(() => resolve()));
    this.sink = null;
  }

  /** SIGKILLs every Chromium process under this process (after a crash or at close). */
  killOrphans(): number {
    let n = 0;
    for (const pid of chromiumProcesses()) {
      try {
        process.kill(pid, 'SIGKILL');
        n++;
      } catch {
        // already gone
      }
    }
    return n;
  }
}

async function closeWithin(context: BrowserContext, ms: number): Promise<void> {
  await Promise.race([context.close().catch(() => undefined), sleep(ms)]);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

function stripHash(u: string): string {
  const i = u.indexOf('#');
  return i === -1 ? u : u.slice(0, i);
}

/** axe-core's violations in the page (evaluated through the DevTools protocol: the page's CSP does not apply). */
async function runAxe(page: Page): Promise<AxeViolation[]> {
  axeSource ??= readFileSync(AXE_SOURCE_PATH, 'utf8');
  await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: {
          run: (
            ctx: unknown,
            o: unknown,
          ) => Promise<{
            violations: {
              id: string;
              impact: string;
              help: string;
              helpUrl: string;
              nodes: { target: unknown[] }[];
            }[];
          }>;
        };
      }
    ).axe;
    const r = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
      resultTypes: ['violations'],
    });
    return r.violations.map((v) => ({
      id: v.id,
      impact: (v.impact ?? 'minor') as AxeViolation['impact'],
      help: v.help,
      help_url: v.helpUrl,
      targets: v.nodes.slice(0, 5).map((n) => n.target.map(String).join(' ')),
      nodes: v.nodes.length,
    }));
  });
}
