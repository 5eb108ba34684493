// Rendered audits: the pool — one shared headless Chromium (chromium.ts: its flags, its launch,
// the proxy sink), a concurrency limit in front of it (slots.ts), per-page budgets (time,
// requests, bytes). A page's visit is visit.ts (with axe.ts), a branded report's PDF pdf.ts,
// Chromium's processes processes.ts. Decisions: docs/rendering.md.
import { existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { Browser } from 'playwright-core';
import type { PageSnapshot, RenderOutcome } from '../analyzer/types.js';
import type { SiteHeaders } from '../analyzer/fetch/site-headers.js';
import { launchChromium, ProxySink, sleep } from './chromium.js';
import { INSTALL_HINT } from './hint.js';
import type { RendererOptions } from './options.js';
import { printPdf, type PdfOptions } from './pdf.js';
import { killChromium } from './processes.js';
import { Slots } from './slots.js';
import { visitPage } from './visit.js';

// kept at this path for the modules that import them from here (tests, benchmarks, index.ts)
export { CHROMIUM_ARGS, HEADLESS_ARGS } from './chromium.js';
export { chromiumProcesses, descendants } from './processes.js';
export type { RendererOptions } from './options.js';

export class Renderer {
  private browser: Promise<Browser> | null = null;
  private readonly sink = new ProxySink();
  private readonly slots: Slots;
  private closed = false;

  constructor(readonly options: RendererOptions) {
    this.slots = new Slots(options.concurrency);
  }

  /** null when Chromium can be started, otherwise why not (with how to install it). */
  unavailable(): string | null {
    if (!existsSync(this.options.executablePath))
      return `Rendered audits need Chromium, which was not found at ${this.options.executablePath}. ${INSTALL_HINT}`;
    return null;
  }

  /** connections that reached the sink proxy (anything that escaped interception) */
  get sinkConnections(): number {
    return this.sink.connections;
  }

  /** the first line of what each of them asked for (preconnects ask nothing) */
  get sinkRequests(): readonly string[] {
    return this.sink.requests;
  }

  /** pages rendering now, the most seen at once, pages waiting for a slot */
  get stats() {
    return { active: this.slots.active, maxActive: this.slots.maxActive, queued: this.slots.queued };
  }

  /** The shared browser, launched on first use and again after a crash. */
  private getBrowser(): Promise<Browser> {
    if (this.browser) return this.browser;
    const launching = (async () => {
      const port = await this.sink.start();
      const browser = await launchChromium(this.options.executablePath, port);
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
  async render(snapshot: PageSnapshot, signal?: AbortSignal, siteHeaders?: SiteHeaders): Promise<RenderOutcome> {
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
      return await visitPage(
        () => this.getBrowser(),
        this.options,
        snapshot,
        queueMs,
        started,
        signal,
        siteHeaders,
      );
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

  /**
   * A PDF of a self-contained HTML document (a branded report: docs/rendering.md), printed by
   * the shared Chromium in a slot of the pool (pdf.ts). Throws on a crash or when the time
   * budget runs out.
   */
  async pdf(document: string, options: PdfOptions): Promise<{ pdf: Buffer; blocked: string[] }> {
    await this.slots.acquire();
    try {
      if (this.closed) throw new Error('the renderer is closed');
      return await printPdf(() => this.getBrowser(), this.options.timeoutMs, document, options);
    } finally {
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
    await this.sink.close();
  }

  /** SIGKILLs every Chromium process under this process (after a crash or at close). */
  killOrphans(): number {
    return killChromium();
  }
}
