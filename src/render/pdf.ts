// A branded report's PDF (docs/rendering.md), printed by the shared browser with no network at
// all: JavaScript off, every request refused and counted.
import type { Browser, BrowserContext, Route } from 'playwright-core';
import { closeWithin } from './chromium.js';
import { racer } from './slots.js';

export interface PdfOptions {
  footerTemplate: string;
  headerTemplate?: string;
  signal?: AbortSignal;
}

/**
 * A PDF of a self-contained HTML document (a branded report: docs/rendering.md), printed by
 * the shared Chromium in a slot of the pool. The document is given with setContent and must
 * hold everything inline (styles, data: images): JavaScript is off, and every request the
 * page would make is refused and counted (`blocked`), so the browser makes no network
 * request at all. Throws on a crash or when the time budget runs out.
 */
export async function printPdf(
  getBrowser: () => Promise<Browser>,
  timeoutMs: number,
  document: string,
  options: PdfOptions,
): Promise<{ pdf: Buffer; blocked: string[] }> {
  const budget = new AbortController();
  const timer = setTimeout(
    () => budget.abort(new Error(`the PDF was not printed within ${timeoutMs} ms`)),
    timeoutMs,
  );
  const signal = options.signal ? AbortSignal.any([budget.signal, options.signal]) : budget.signal;
  const race = racer(signal, 'the PDF was stopped');
  let context: BrowserContext | null = null;
  const blocked: string[] = [];
  try {
    const browser = await race(getBrowser());
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
      await race(page.setContent(document, { waitUntil: 'load', timeout: timeoutMs }));
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
  }
}
