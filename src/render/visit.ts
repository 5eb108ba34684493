// One visit of a page in the shared browser: a fresh context, every request intercepted and sent
// by GuardedNetwork through the fetcher's address guard (or refused), WebSockets refused,
// service workers blocked, downloads refused, permissions denied, popups and dialogs closed.
// The main document is not fetched again: the browser is given the raw snapshot's bytes, so
// both audits judge one visit. Decisions: docs/rendering.md.
import { setMaxListeners } from 'node:events';
import { performance } from 'node:perf_hooks';
import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import type { PageSnapshot, RenderSuccess } from '../analyzer/types.js';
import type { SiteHeaders } from '../analyzer/fetch/site-headers.js';
import { runAxe } from './axe.js';
import { closeWithin } from './chromium.js';
import { GuardedNetwork } from './network.js';
import type { RendererOptions } from './options.js';
import { racer } from './slots.js';

/** Collects LCP, CLS and long tasks (→ TBT) from the browser's own performance entries. */
const PERF_SCRIPT = `(() => {
  const m = { lcp: null, cls: 0, tbt: 0 };
  Object.defineProperty(window, '__pagegradeLab', { value: m, enumerable: false });
  const obs = (type, fn) => { try { new PerformanceObserver((l) => l.getEntries().forEach(fn)).observe({ type, buffered: true }); } catch {} };
  obs('largest-contentful-paint', (e) => { m.lcp = e.startTime; });
  obs('layout-shift', (e) => { if (!e.hadRecentInput) m.cls += e.value; });
  obs('longtask', (e) => { m.tbt += Math.max(0, e.duration - 50); });
})();`;

/**
 * Renders `snapshot` in the browser `getBrowser` gives, within the options' budgets; throws on a
 * crash, a timeout or when `outer` aborts (Renderer.render turns that into a RenderFailure).
 */
export async function visitPage(
  getBrowser: () => Promise<Browser>,
  o: RendererOptions,
  snapshot: PageSnapshot,
  queueMs: number,
  started: number,
  outer?: AbortSignal,
  siteHeaders?: SiteHeaders,
): Promise<RenderSuccess> {
  const budget = new AbortController();
  // the page's budget starts once the browser is up: a cold pool's launch (seconds on a busy
  // machine) has its own limit (LAUNCH_TIMEOUT_MS) and never times the first page out
  let timer: NodeJS.Timeout | undefined;
  let budgetStart = started;
  const startBudget = () => {
    budgetStart = performance.now();
    timer = setTimeout(
      () => budget.abort(new Error(`the page did not render within ${o.timeoutMs} ms`)),
      o.timeoutMs,
    );
  };
  const signal = outer ? AbortSignal.any([budget.signal, outer]) : budget.signal;
  // every subresource request in flight listens to the page's signal (undici, the DNS race, the
  // connector): a page with many at once is not a leak (it printed MaxListenersExceededWarning)
  setMaxListeners(0, signal);
  const net = new GuardedNetwork(
    o.network,
    { maxRequests: o.maxRequests, maxBytes: o.maxBytes },
    signal,
    o.userAgent,
    siteHeaders,
  );
  let context: BrowserContext | null = null;
  let crashed: string | null = null;
  const race = racer(signal, 'the render was stopped');
  try {
    const browser = await race(getBrowser());
    startBudget();
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
      const idleCap = Math.min(o.idleCapMs ?? 2000, Math.max(0, o.timeoutMs - (performance.now() - budgetStart)));
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
        axe: axe?.violations ?? null,
        axe_passes: axe?.passes ?? null,
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

function stripHash(u: string): string {
  const i = u.indexOf('#');
  return i === -1 ? u : u.slice(0, i);
}
