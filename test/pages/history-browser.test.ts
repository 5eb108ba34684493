// The report's history in real headless Chromium (app listening on 127.0.0.1:0): the score
// chart and "changed since the last run" at desktop and phone widths and in print (screenshots
// and a PDF in test-output/), the dashboard's trend arrows, axe-core, and no CSP violation.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import type { StoredReport } from '../../src/services/reports/types.js';
import { describeEachDialect } from '../helpers/app.js';
import {
  chromiumSession,
  chromiumSkip,
  seriousViolations,
  type ChromiumSession,
} from '../helpers/chromium.js';
import { goodPage, html } from '../helpers/fixture-server.js';
import { createPagesHarness, type PagesHarness } from '../helpers/pages-harness.js';

const OUT = new URL('../../test-output/', import.meta.url);

describeEachDialect('report history in headless Chromium', { skip: chromiumSkip }, (dialect) => {
  let h: PagesHarness;
  let chromium: ChromiumSession;
  let base: string;
  let report: StoredReport;

  before(async () => {
    mkdirSync(OUT, { recursive: true });
    h = await createPagesHarness(dialect);
    const origin = h.site('site');
    const v1 = goodPage(origin);
    const v2 = v1.replace(/<title>[^<]*<\/title>\n/, '');
    const v3 = v2.replace(
      '</body>',
      '<img src="/garden.webp" width="400" height="300" loading="lazy">\n</body>',
    );
    h.fixture.route('/history', html(v1));
    report = await h.report(h.alice, '/history');
    for (const v of [v2, v3, null, v3, v1]) {
      h.fixture.route(
        '/history',
        v === null ? { status: 200, headers: { 'content-type': 'application/pdf' }, body: '%PDF' } : html(v),
      );
      await h.services.reports.reaudit(h.alice.id, report.id, { source: 'schedule' });
    }
    base = await h.app.listen({ port: 0, host: '127.0.0.1' });
    chromium = await chromiumSession(base);
  });

  after(async () => {
    await chromium?.close();
    await h?.close();
  });

  const newPage: ChromiumSession['newPage'] = (options) => chromium.newPage(options);

  test('the chart and the changes at 1280 and 390 px', async () => {
    const page = await newPage();
    const res = await page.goto(`${base}/reports/${report.id}`);
    assert.equal(res?.status(), 200);
    const chart = page.locator('svg.chart');
    assert.ok(await chart.isVisible());
    const box = (await chart.boundingBox())!;
    assert.ok(box.width > 500 && box.height > 150, `chart size ${box.width}×${box.height}`);
    assert.equal(await page.locator('.chart__point').count(), 5, 'five completed runs');
    assert.equal(await page.locator('.chart__failed').count(), 1, 'one failed run');
    // the stylesheet coloured the bands (CSS classes, no inline style)
    const fill = await page.$eval('.chart__band--bad', (e) => getComputedStyle(e).fill);
    assert.equal(fill, 'rgb(251, 233, 233)');
    assert.match((await page.textContent('.history__changes'))!, /From run 5 .* to run 6/s);
    assert.ok(await page.locator('.history__changes a[href="#check-title"]').isVisible());
    await page.screenshot({ path: new URL('report-history-desktop.png', OUT).pathname, fullPage: true });
    await page.locator('.history').screenshot({ path: new URL('report-history-section.png', OUT).pathname });

    const phone = await newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await phone.goto(`${base}/reports/${report.id}`);
    const overflow = await phone.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    assert.ok(overflow <= 0, `no sideways scrolling on a phone (overflow ${overflow}px)`);
    const phoneChart = (await phone.locator('svg.chart').boundingBox())!;
    assert.ok(phoneChart.width <= 390 && phoneChart.width > 250, `chart fits: ${phoneChart.width}px`);
    await phone.screenshot({ path: new URL('report-history-phone.png', OUT).pathname, fullPage: true });
  });

  test('the history prints: chart and changes visible, in the PDF', async () => {
    const page = await newPage();
    await page.goto(`${base}/reports/${report.id}`);
    await page.emulateMedia({ media: 'print' });
    assert.ok(await page.locator('svg.chart').isVisible());
    assert.ok(await page.locator('.history__changes').isVisible());
    await page.locator('.history').screenshot({ path: new URL('report-history-print.png', OUT).pathname });
    const pdf = await page.pdf({ format: 'A4', printBackground: true });
    writeFileSync(new URL('report-history.pdf', OUT), pdf);
    assert.ok(pdf.length > 10_000);
  });

  test('the dashboard shows a trend arrow', async () => {
    const page = await newPage();
    await chromium.signIn(page, h.alice.key);
    const trend = page.locator(`#report-${report.id} .trend`);
    assert.equal(await trend.count(), 1);
    assert.ok(await trend.isVisible());
    assert.match(
      (await trend.getAttribute('title'))!,
      /^(Up|Down) \d+ points? since the last run$|^No change/,
    );
    await page.screenshot({ path: new URL('dashboard-trend.png', OUT).pathname });
  });

  test('axe-core finds no serious or critical violations in the history and the trend', async () => {
    const page = await newPage({ bypassCSP: true });
    await page.goto(`${base}/reports/${report.id}`);
    assert.deepEqual(await seriousViolations(page), []);
    await chromium.signIn(page, h.alice.key);
    assert.equal(await page.locator('.trend').count(), 1);
    assert.deepEqual(await seriousViolations(page), []);
  });

  test('no page broke its Content-Security-Policy or threw', () => {
    assert.deepEqual(chromium.consoleErrors, []);
  });
});
