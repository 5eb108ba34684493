// Headless Chromium for page tests (playwright-core on Debian's /usr/bin/chromium): the launch
// flags, the skip rule (no Chromium: skipped with the reason, unless PAGEGRADE_REQUIRE_BROWSER=1),
// a session against the app (pages in their own contexts, their console errors collected, the
// sign-in form filled) and an axe-core run that returns the serious and critical violations.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM_ARGS } from '../../src/render/browser.js';

export const CHROMIUM = '/usr/bin/chromium';
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

const available = existsSync(CHROMIUM);
if (!available && process.env.PAGEGRADE_REQUIRE_BROWSER === '1') {
  throw new Error(`Chromium is required (PAGEGRADE_REQUIRE_BROWSER=1) but ${CHROMIUM} is missing`);
}
/** false when Chromium is there; otherwise why the browser tests are skipped */
export const chromiumSkip: false | string = available
  ? false
  : `Chromium not found at ${CHROMIUM} (apt-get install -y chromium): browser tests skipped`;
if (chromiumSkip) console.log(`# ${chromiumSkip}`);

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    // the product's own flags (src/render/browser.ts)
    args: CHROMIUM_ARGS,
  });
}

type ContextOptions = NonNullable<Parameters<Browser['newContext']>[0]>;

export interface ChromiumSession {
  browser: Browser;
  /** console errors and uncaught exceptions of every page opened (CSP violations show up here) */
  consoleErrors: string[];
  /** a page in a context of its own (viewport: the session's unless `options` says) */
  newPage(options?: ContextOptions): Promise<Page>;
  /**
   * Signs in through the form with an API key and waits for the page it lands on: the dashboard,
   * or `next` (`/login?next=…`).
   */
  signIn(page: Page, key: string, next?: string): Promise<void>;
  /** closes every context, then the browser */
  close(): Promise<void>;
}

/** Launches Chromium for tests of the app listening at `base` (http://127.0.0.1:PORT). */
export async function chromiumSession(
  base: string,
  o: { viewport?: { width: number; height: number } } = {},
): Promise<ChromiumSession> {
  const browser = await launchChromium();
  const contexts: BrowserContext[] = [];
  const consoleErrors: string[] = [];
  const viewport = o.viewport ?? { width: 1280, height: 900 };
  return {
    browser,
    consoleErrors,
    async newPage(options = {}) {
      const context = await browser.newContext({ viewport, ...options });
      contexts.push(context);
      const page = await context.newPage();
      page.on('console', (m) => {
        if (m.type() === 'error') consoleErrors.push(`${page.url()}: ${m.text()}`);
      });
      page.on('pageerror', (e) => consoleErrors.push(`${page.url()}: ${e.message}`));
      return page;
    },
    async signIn(page, key, next) {
      await page.goto(next ? `${base}/login?next=${next}` : `${base}/login`);
      // the API key's form is folded under the email and password one (docs/teams.md "Signing in")
      await page.click('summary:has-text("API key")');
      await page.fill('#api-key', key);
      await Promise.all([
        page.waitForURL(`${base}${next ?? '/dashboard'}`),
        page.click('button[type=submit]:has-text("Sign in with the key")'),
      ]);
    },
    async close() {
      for (const c of contexts) await c.close().catch(() => {});
      await browser.close();
    },
  };
}

/** axe-core's serious and critical violations on the page (open it with bypassCSP: axe is injected inline). */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: AXE });
  const violations = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: {
          run: (o: unknown) => Promise<{
            violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[];
          }>;
        };
      }
    ).axe;
    const r = await axe.run({
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
    });
    return r.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.slice(0, 3).map((n) => n.target.join(' ')),
    }));
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.targets.join(', ')}`);
}
