// The batch pages in real headless Chromium (app listening on 127.0.0.1:0, a slow fixture site
// so that the crawl takes seconds): start a batch from the form, the progress bar and counts
// move by themselves (the page's script on its own event stream, no reload), the page turns into
// the summary when the batch ends; the charts at desktop and phone widths and in print
// (screenshots and a PDF in test-output/), axe-core, and no CSP violation.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import {
  chromiumSession,
  chromiumSkip,
  seriousViolations,
  type ChromiumSession,
} from '../helpers/chromium.js';
import { sqliteDialect } from '../helpers/db.js';
import { buildUser, type TestUser } from '../helpers/factories.js';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.js';
import { startBatchApp, type BatchApp } from '../helpers/batch-app.js';

const OUT = new URL('../../test-output/', import.meta.url);

describe('batch pages in headless Chromium [sqlite]', { skip: chromiumSkip || sqliteDialect.skip }, () => {
  let app: BatchApp;
  let site: FixtureSite;
  let alice: TestUser;
  let chromium: ChromiumSession;
  let base: string;
  let batchUrl: string;

  before(async () => {
    mkdirSync(OUT, { recursive: true });
    app = await startBatchApp(sqliteDialect);
    // 120 ms a page, two at a time: a 30-page crawl runs for about two seconds
    site = await startFixtureSite({ pages: 30, crawlDelay: null, latencyMs: 120 });
    alice = await buildUser(app.t.services, 'alice');
    base = await app.t.app.listen({ port: 0, host: '127.0.0.1' });
    chromium = await chromiumSession(base);
  });
  after(async () => {
    await chromium?.close();
    await app?.close();
    await site?.close();
  });

  const newPage: ChromiumSession['newPage'] = (options) => chromium.newPage(options);
  const signIn = (page: Page) => chromium.signIn(page, alice.key, '/dashboard/batches');

  test('start from the form; live progress without a reload; the summary when it ends', async () => {
    const page = await newPage();
    await signIn(page);
    await page.screenshot({ path: new URL('batch-form.png', OUT).pathname, fullPage: true });
    await page.selectOption('#batch-mode', 'crawl');
    await page.fill('#batch-url', `${site.origin}/`);
    await page.fill('#batch-max-pages', '40');
    await Promise.all([
      page.waitForURL(/\/dashboard\/batches\/\d+$/),
      page.click('button[type=submit]:has-text("Start batch")'),
    ]);
    batchUrl = page.url();
    assert.ok(await page.locator('progress.batch-progress__bar').isVisible());
    // a marker that a reload would lose: the counts move while it stays
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
    const first = Number(await page.textContent('[data-count="audited"]'));
    await page.waitForFunction(
      (n) =>
        (window as unknown as { marker?: number }).marker === 1 &&
        Number(document.querySelector('[data-count="audited"]')?.textContent) > n,
      first,
      { timeout: 30_000 },
    );
    const bar = await page.$eval('progress', (p) => ({
      value: (p as HTMLProgressElement).value,
      max: (p as HTMLProgressElement).max,
    }));
    assert.ok(bar.value > 0 && bar.max >= bar.value, JSON.stringify(bar));
    await page.locator('.batch-progress').screenshot({ path: new URL('batch-progress.png', OUT).pathname });

    // the end: the page reloads itself into the summary
    await page.locator('#summary-title').waitFor({ timeout: 60_000 });
    assert.ok(await page.locator('svg.chart--histogram').isVisible());
    assert.ok(await page.locator('svg.chart--issues').isVisible());
    const fill = await page.$eval('.chart__bar', (e) => getComputedStyle(e).fill);
    assert.equal(fill, 'rgb(29, 78, 216)', 'the stylesheet colours the bars');
    assert.ok((await page.locator('table.batch-pages tbody tr').count()) >= 25);
    await page.screenshot({ path: new URL('batch-desktop.png', OUT).pathname, fullPage: true });
    // axe-core is injected inline: in its own context that bypasses the CSP
    const audit = await newPage({ bypassCSP: true });
    await signIn(audit);
    await audit.goto(batchUrl);
    assert.deepEqual(await seriousViolations(audit), []);
    await audit.goto(`${base}/dashboard/batches`);
    assert.deepEqual(await seriousViolations(audit), []);
  });

  test('without JavaScript: the form works and the page refreshes itself until the summary', async () => {
    const page = await newPage({ javaScriptEnabled: false });
    await signIn(page);
    await page.selectOption('#batch-mode', 'list');
    await page.fill(
      '#batch-urls',
      Array.from({ length: 8 }, (_, i) => `${site.origin}/p/${i + 1}`).join('\n'),
    );
    await Promise.all([
      page.waitForURL(/\/dashboard\/batches\/\d+$/),
      page.click('button[type=submit]:has-text("Start batch")'),
    ]);
    assert.ok(await page.locator('progress.batch-progress__bar').isVisible());
    // <noscript><meta http-equiv="refresh" content="5"> reloads it until the batch has ended
    await page.locator('#summary-title').waitFor({ timeout: 60_000 });
    assert.match((await page.textContent('.batch-progress__counts'))!, /8 audited/);
  });

  test('the batch page on a phone and in print', async () => {
    const phone = await newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await signIn(phone);
    await phone.goto(batchUrl);
    const overflow = await phone.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    assert.ok(overflow <= 0, `no sideways scrolling on a phone (overflow ${overflow}px)`);
    const chart = (await phone.locator('svg.chart--histogram').boundingBox())!;
    assert.ok(chart.width <= 390 && chart.width > 250, `the histogram fits: ${chart.width}px`);
    await phone.screenshot({ path: new URL('batch-phone.png', OUT).pathname, fullPage: true });

    const page = await newPage();
    await signIn(page);
    await page.goto(batchUrl);
    await page.emulateMedia({ media: 'print' });
    assert.ok(await page.locator('svg.chart--histogram').isVisible());
    assert.ok(await page.locator('svg.chart--issues').isVisible());
    assert.ok(!(await page.locator('.batch-actions').isVisible()), 'no buttons in print');
    assert.ok(
      await page.locator('.finding__pages').first().isVisible(),
      'findings list their pages in print',
    );
    const pdf = await page.pdf({ format: 'A4', printBackground: true });
    writeFileSync(new URL('batch.pdf', OUT), pdf);
    assert.ok(pdf.length > 10_000);
  });

  test('the live page is pushed: the badge leaves Queued and the table fills while it runs', async () => {
    // a slower site: discovery (robots.txt, sitemap, probe, favicon) alone takes over a second,
    // so the page opens while the batch is queued
    const slow = await startFixtureSite({ pages: 12, crawlDelay: null, latencyMs: 400 });
    try {
      const batch = await app.t.services.batches.create(alice.id, { url: `${slow.origin}/`, mode: 'crawl' });
      const page = await newPage();
      await signIn(page);
      await page.goto(`${base}/dashboard/batches/${batch.id}`);
      await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
      // the first audited page…
      await page.waitForFunction(
        () => Number(document.querySelector('[data-count="audited"]')?.textContent) > 0,
        undefined,
        { timeout: 30_000 },
      );
      const seenAt = Date.now();
      // …and within 2 s the badge says Running, without a reload
      await page.waitForFunction(
        () =>
          (window as unknown as { marker?: number }).marker === 1 &&
          document.querySelector('.page-head .batch-status')?.textContent === 'Running',
        undefined,
        { timeout: 2_000 },
      );
      assert.ok(Date.now() - seenAt <= 2_000);
      // the pages table shows pages before the end (the live section is still there: no reload)
      await page.waitForFunction(
        () =>
          (window as unknown as { marker?: number }).marker === 1 &&
          document.querySelector('[data-batch-events]') !== null &&
          document.querySelectorAll('table.batch-pages tbody tr').length > 0,
        undefined,
        { timeout: 10_000 },
      );
      await page.locator('#summary-title').waitFor({ timeout: 60_000 });
    } finally {
      await slow.close();
    }
  });

  test('no console error and no CSP violation on any page', () => {
    assert.deepEqual(chromium.consoleErrors, []);
  });
});
