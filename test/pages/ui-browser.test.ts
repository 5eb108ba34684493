// Issue 13's dashboard and report-page items in real headless Chromium (the app on
// 127.0.0.1:0, real pages of the corpus served by the fixture server on loopback): the
// client-ready first page, passed checks collapsed on screen and listed in print, a printed
// report of at most 6 A4 pages with a running header and page numbers (page.pdf, counted and
// read with poppler's pdfinfo/pdftotext), the dashboard's forms. Screenshots and PDFs land in
// test-output/.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import type { StoredReport } from '../../src/services/reports/types.js';
import { describeEachDialect } from '../helpers/app.js';
import {
  chromiumSession,
  chromiumSkip,
  seriousViolations,
  type ChromiumSession,
} from '../helpers/chromium.js';
import { html } from '../helpers/fixture-server.js';
import { createPagesHarness, type PagesHarness } from '../helpers/pages-harness.js';

const OUT = new URL('../../test-output/', import.meta.url);
const CORPUS = new URL('../../../shared/corpus/pages/', import.meta.url);
/** real saved pages, typical of what an agency audits */
const TYPICAL = ['readability-guardian.html', 'hpb-github-blog-2013.html', 'parse5-npmjs-org.html'];
const POPPLER = existsSync('/usr/bin/pdftotext') && existsSync('/usr/bin/pdfinfo');
const skip =
  chromiumSkip ||
  (!existsSync(CORPUS)
    ? `the corpus is not at ${CORPUS.pathname}: browser tests of issue 13 skipped`
    : false) ||
  (!POPPLER ? 'poppler-utils (pdftotext, pdfinfo) not installed: browser tests of issue 13 skipped' : false);
if (skip && skip !== chromiumSkip) console.log(`# ${skip}`);

/** The PDF's pages' text (pdftotext, one string per page) and its page count (pdfinfo). */
function readPdf(path: string): { pages: number; text: string[] } {
  const info = execFileSync('pdfinfo', [path], { encoding: 'utf8' });
  const pages = Number(/^Pages:\s+(\d+)/m.exec(info)![1]);
  const text = execFileSync('pdftotext', ['-layout', path, '-'], { encoding: 'utf8' }).split('\f');
  return { pages, text: text.slice(0, pages) };
}

describeEachDialect('issue 13: report and dashboard in headless Chromium', { skip }, (dialect) => {
  let h: PagesHarness;
  let chromium: ChromiumSession;
  let base: string;
  const reports: StoredReport[] = [];

  before(async () => {
    mkdirSync(OUT, { recursive: true });
    h = await createPagesHarness(dialect);
    for (const [i, name] of TYPICAL.entries()) {
      h.fixture.route(`/corpus/${i}`, html(readFileSync(new URL(name, CORPUS), 'utf8')));
      reports.push(await h.report(h.alice, `/corpus/${i}`));
    }
    base = await h.app.listen({ port: 0, host: '127.0.0.1' });
    chromium = await chromiumSession(base, { viewport: { width: 1366, height: 900 } });
  });

  after(async () => {
    await chromium?.close();
    await h?.close();
  });

  const newPage: ChromiumSession['newPage'] = (options) => chromium.newPage(options);
  const signIn = (page: Page, key = h.alice.key) => chromium.signIn(page, key);

  test('item 4: the first screen is client-ready: title and URL, date, score, categories, fix these first', async () => {
    const r = reports[0]!;
    const page = await newPage();
    await page.goto(`${base}/reports/${r.id}`);
    const title = r.results.title?.value;
    assert.equal(typeof title, 'string');
    assert.equal((await page.textContent('h1.summary__title'))!.trim(), String(title).trim());
    assert.equal((await page.textContent('.summary__url'))!.trim(), r.url);
    assert.match((await page.textContent('.facts--summary'))!, /Audited\s*\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
    // the four scored categories, accessibility (raw: "not judged: needs render=1") and ai
    assert.equal(await page.locator('.first-page .category-card').count(), 6);
    const items = page.locator('.fix-first__item');
    const n = await items.count();
    const failed = Object.values(r.results).filter((c) => c.passed === false);
    assert.equal(n, Math.min(10, failed.length));
    assert.ok(n > 0);
    // by priority: no high after a medium, no medium after a low
    const order = { high: 0, medium: 1, low: 2 } as Record<string, number>;
    const priorities = await page.$$eval('.fix-first__item .priority', (els) =>
      els.map((e) => /priority--(\w+)/.exec(e.className)![1]!),
    );
    assert.deepEqual(
      priorities,
      [...priorities].sort((a, b) => order[a]! - order[b]!),
    );
    // everything above fits the first printed page (checked in the print test); on screen the
    // list links to the checks
    const href = await items.first().locator('a').getAttribute('href');
    assert.ok(await page.locator(href!).isVisible());
    await page.locator('.first-page').screenshot({ path: new URL('ui-first-page.png', OUT).pathname });
  });

  test('item 5: passed checks are collapsed into a compact table on screen; the page is much shorter', async () => {
    const r = reports[0]!;
    const page = await newPage();
    await page.goto(`${base}/reports/${r.id}`);
    const passed = Object.values(r.results).filter((c) => c.passed === true);
    assert.ok(passed.length > 5);
    assert.equal(await page.locator('.passed-table__row').count(), passed.length);
    const row = page.locator(`#check-${passed[0]!.id}`);
    assert.equal(await row.isVisible(), false, 'collapsed');
    await page.locator('details.passed-checks summary').first().click();
    assert.ok(
      await page.locator('details.passed-checks').first().locator('.passed-table__row').first().isVisible(),
    );
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    await page.screenshot({ path: new URL('ui-report-desktop.png', OUT).pathname, fullPage: true });
    const phone = await newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await phone.goto(`${base}/reports/${r.id}`);
    const overflow = await phone.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    assert.ok(overflow <= 0, `no sideways scrolling at 390 px (${overflow}px)`);
    const phoneHeight = await phone.evaluate(() => document.documentElement.scrollHeight);
    await phone.screenshot({ path: new URL('ui-report-phone.png', OUT).pathname, fullPage: true });
    console.log(`# report ${r.url}: ${height}px tall at 1366 px, ${phoneHeight}px at 390 px`);
  });

  test('items 5 and 6: a typical report prints in at most 6 A4 pages, with a running header, page numbers, no blank page', async () => {
    const page = await newPage();
    for (const [i, r] of reports.entries()) {
      await page.goto(`${base}/reports/${r.id}`);
      const pdf = await page.pdf({ format: 'A4', printBackground: true });
      const path = new URL(`ui-report-${i}.pdf`, OUT).pathname;
      writeFileSync(path, pdf);
      const { pages, text } = readPdf(path);
      console.log(`# ${TYPICAL[i]}: ${pages} A4 pages`);
      assert.ok(pages <= 6, `${TYPICAL[i]}: ${pages} pages (at most 6)`);
      assert.ok(pages >= 2, 'page one is the summary, the checks follow');
      // page one: the client-ready summary
      assert.match(text[0]!, /Fix these first/i);
      assert.match(text[0]!, /Categories/i);
      const shortUrl = r.url.slice(0, 40);
      for (const [n, t] of text.entries()) {
        assert.ok(t.includes(shortUrl), `page ${n + 1}: the running header names the URL`);
        assert.ok(t.includes(`Page ${n + 1} of ${pages}`), `page ${n + 1}: its number`);
        // no blank or nearly blank page before the last (the last one ends where the report ends)
        const chars = t.replace(/\s+/g, ' ').trim().length;
        if (n < pages - 1) assert.ok(chars > 1500, `page ${n + 1} is not nearly blank (${chars} characters)`);
      }
      // failed checks in full (with how to fix), passed ones one line each
      const all = text.join('\n');
      const failed = Object.values(r.results).filter((c) => c.passed === false);
      assert.match(all, /how to fix/i);
      const passed = Object.values(r.results).filter((c) => c.passed === true);
      for (const c of passed) {
        const start = c.title.slice(0, 25);
        assert.ok(all.replace(/\s+/g, ' ').includes(start), `passed check listed in print: ${c.title}`);
      }
      assert.ok(failed.length > 0);
    }
  });

  test('item 1: the filter form with "Any result" and the listed URLs never show an error page', async () => {
    const page = await newPage();
    await signIn(page);
    await page.selectOption('#f-result', '');
    await page.selectOption('#f-sort-by', 'score');
    await Promise.all([page.waitForURL(/\/dashboard\?/), page.click('form.filters button[type=submit]')]);
    assert.match(page.url(), /result=&/);
    assert.equal(await page.locator('.alert--error').count(), 0);
    assert.equal(await page.locator('.report-row').count(), reports.length);
    for (const q of ['result=', 'per_page=1000', 'sort_by=score', 'page=abc']) {
      const res = await page.goto(`${base}/dashboard?${q}`);
      assert.equal(res?.status(), 200, q);
      assert.equal(await page.locator('.alert--error').count(), 0, q);
      assert.equal(await page.locator('.report-row').count(), reports.length, q);
    }
    await page.goto(`${base}/dashboard?per_page=1000`);
    assert.match((await page.textContent('.alert--notice'))!, /Per page cannot be “1000”/);
    await page.screenshot({ path: new URL('ui-dashboard-notice.png', OUT).pathname });
  });

  test('item 3: typing a password selects Password; choosing Public clears it', async () => {
    const page = await newPage();
    await signIn(page);
    await page.fill('#create-password', 'secret');
    assert.equal(await page.inputValue('#create-privacy'), '2');
    await page.selectOption('#create-privacy', '0');
    assert.equal(await page.inputValue('#create-password'), '');
  });

  test('axe-core: no serious or critical violations on the report page', async () => {
    const page = await newPage({ bypassCSP: true });
    await page.goto(`${base}/reports/${reports[0]!.id}`);
    assert.deepEqual(await seriousViolations(page), []);
  });

  test('no page broke its Content-Security-Policy or threw', () => {
    assert.deepEqual(chromium.consoleErrors, []);
  });
});
