// The pages in real headless Chromium, against the app listening on 127.0.0.1:0: the report
// page (screenshots at desktop and phone widths, print to PDF), privacy and the password flow,
// sign-in and the dashboard's actions, escaping (no dialog fires), and axe-core accessibility.
// Without /usr/bin/chromium the suite is skipped with the reason, unless
// PAGEGRADE_REQUIRE_BROWSER=1 (CI), where its absence fails.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import type { StoredReport } from '../../src/services/reports/types.js';
import { describeEachDialect } from '../helpers/app.js';
import {
  chromiumSession,
  chromiumSkip as skip,
  seriousViolations,
  type ChromiumSession,
} from '../helpers/chromium.js';
import { createPagesHarness, XSS_ATTR, XSS_TITLE, type PagesHarness } from '../helpers/pages-harness.js';

const OUT = new URL('../../test-output/', import.meta.url);

describeEachDialect('pages in headless Chromium', { skip }, (dialect) => {
  let h: PagesHarness;
  let chromium: ChromiumSession;
  let base: string;
  let pub: StoredReport;

  before(async () => {
    mkdirSync(OUT, { recursive: true });
    h = await createPagesHarness(dialect);
    // a page that takes a while, so that the "auditing…" state can be seen
    h.fixture.route('/slow', async (_req, res) => {
      await new Promise((r) => setTimeout(r, 1200));
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        '<!doctype html><html lang="en"><head><title>Slow page</title></head><body><h1>Slow</h1></body></html>',
      );
    });
    base = await h.app.listen({ port: 0, host: '127.0.0.1' });
    chromium = await chromiumSession(base);
    pub = await h.report(h.alice, '/bad');
  });

  after(async () => {
    await chromium?.close();
    await h?.close();
  });

  const newPage: ChromiumSession['newPage'] = (options) => chromium.newPage(options);
  const signIn = (page: Page, key: string) => chromium.signIn(page, key);

  test('a public report renders its score and checks; screenshots at 1280 and 390 px', async () => {
    const page = await newPage();
    const res = await page.goto(`${base}/reports/${pub.id}`);
    assert.equal(res?.status(), 200);
    assert.equal(await page.textContent('.summary__url'), pub.url);
    assert.equal(
      await page.getAttribute('.summary svg.gauge', 'aria-label'),
      `Score ${pub.score} out of 100: ${pub.result[0]!.toUpperCase()}${pub.result.slice(1)}`,
    );
    // failed and not-judged checks in full, passed ones as rows of the compact table
    assert.equal(
      (await page.locator('.check').count()) + (await page.locator('.passed-table__row').count()),
      Object.keys(pub.results).length,
    );
    assert.ok(await page.locator('.check--failed .check__fix').first().isVisible());
    assert.ok(await page.locator('button[data-print]').isVisible(), 'the script shows the print button');
    // the stylesheet applied (served by the app, allowed by the CSP)
    const headerBg = await page.$eval('.site-header', (e) => getComputedStyle(e).backgroundColor);
    assert.equal(headerBg, 'rgb(17, 26, 46)');
    await page.screenshot({ path: new URL('report-desktop.png', OUT).pathname, fullPage: true });

    const phone = await newPage({
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 1,
      isMobile: true,
      hasTouch: true,
    });
    await phone.goto(`${base}/reports/${pub.id}`);
    const overflow = await phone.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    assert.ok(overflow <= 0, `no sideways scrolling on a phone (overflow ${overflow}px)`);
    await phone.screenshot({ path: new URL('report-phone.png', OUT).pathname, fullPage: true });
  });

  test('the report prints to a clean multi-page PDF', async () => {
    const page = await newPage();
    await page.goto(`${base}/reports/${pub.id}`);
    await page.emulateMedia({ media: 'print' });
    assert.equal(await page.locator('.site-header').isVisible(), false, 'no navigation in print');
    assert.equal(
      await page
        .locator('button')
        .first()
        .isVisible()
        .catch(() => false),
      false,
      'no buttons in print',
    );
    const pdf = await page.pdf({ format: 'A4', printBackground: true });
    writeFileSync(new URL('report.pdf', OUT), pdf);
    const pages = (pdf.toString('latin1').match(/\/Type\s*\/Page\b(?!s)/g) ?? []).length;
    assert.ok(pages >= 2, `a summary page and the checks (got ${pages})`);
  });

  test('a private report is a 404 to an anonymous browser and visible to its signed-in owner', async () => {
    const priv = await h.report(h.alice, '/', 1);
    const anon = await newPage();
    const res = await anon.goto(`${base}/reports/${priv.id}`);
    assert.equal(res?.status(), 404);
    assert.equal(await anon.textContent('h1'), 'Page not found');
    assert.equal(await anon.locator(`text=${priv.url}`).count(), 0);

    const owner = await newPage();
    await signIn(owner, h.alice.key);
    const ok = await owner.goto(`${base}/reports/${priv.id}`);
    assert.equal(ok?.status(), 200);
    assert.equal(await owner.textContent('.summary__url'), priv.url);
    assert.ok(await owner.locator('.owner-bar').isVisible());
  });

  test('the password flow: wrong, throttled, right', async () => {
    const locked = await h.report(h.alice, '/', 2, 'let me in');
    const page = await newPage();
    await page.goto(`${base}/reports/${locked.id}`);
    assert.equal(await page.textContent('h1'), 'This report is protected');
    await page.screenshot({ path: new URL('password-form.png', OUT).pathname });
    for (let i = 0; i < 5; i++) {
      await page.fill('#report-password', `wrong ${i}`);
      await Promise.all([page.waitForLoadState('load'), page.click('button:has-text("Open report")')]);
      assert.equal(await page.textContent('#password-error'), 'That password is not right.');
    }
    await page.fill('#report-password', 'let me in');
    const [throttled] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST'),
      page.click('button:has-text("Open report")'),
    ]);
    assert.equal(throttled.status(), 429);
    assert.ok(Number(throttled.headers()['retry-after']) > 0);
    await page.waitForSelector('h1:has-text("Too many attempts")');
    await page.screenshot({ path: new URL('password-429.png', OUT).pathname });

    // the right password (on a report this browser has not hammered) opens it, and keeps it open
    const other = await h.report(h.alice, '/', 2, 'open sesame');
    await page.goto(`${base}/reports/${other.id}`);
    await page.fill('#report-password', 'open sesame');
    await Promise.all([
      page.waitForURL(`${base}/reports/${other.id}`),
      page.click('button:has-text("Open report")'),
    ]);
    assert.equal(await page.textContent('.summary__url'), other.url);
    await page.reload();
    assert.equal(await page.textContent('.summary__url'), other.url);
    const cookie = (await page.context().cookies()).find((c) => c.name === 'pg_access')!;
    assert.equal(cookie.path, `/reports/${other.id}`);
    assert.equal(cookie.httpOnly, true);
    assert.equal(cookie.sameSite, 'Lax');
  });

  test('sign in, create (with the auditing… state), re-run, change privacy and delete from the dashboard', async () => {
    const page = await newPage();
    page.on('dialog', (d) => void d.accept());
    await signIn(page, h.bob.key);
    assert.ok(await page.locator('text=Signed in as').isVisible());

    // create: an unreachable page shows the 422 message on the page
    await page.fill('#create-url', `${h.fixture.origin}/json`);
    await Promise.all([page.waitForLoadState('load'), page.click('button:has-text("Audit page")')]);
    assert.ok(await page.locator('#create-url-error').isVisible());

    // a web address without its scheme is not refused by the browser (the field is text, not
    // type=url): the server answers, suggesting the full address (issue 23 §5)
    await page.fill('#create-url', 'example.com/page');
    await Promise.all([page.waitForLoadState('load'), page.click('button:has-text("Audit page")')]);
    assert.match(
      String(await page.textContent('#create-url-error')),
      /did you mean https:\/\/example\.com\/page\?/,
    );
    assert.equal(await page.inputValue('#create-url'), 'example.com/page');

    // create a slow page: the form shows its busy state while the audit runs
    await page.fill('#create-url', `${h.fixture.origin}/slow`);
    const nav = page.waitForURL(/\/reports\/\d+$/, { timeout: 15_000 });
    const busy = page.waitForFunction(
      () => {
        const status = document.querySelector('.create-form .busy') as HTMLElement | null;
        const button = document.querySelector('.create-form button[type=submit]') as HTMLButtonElement | null;
        return status && !status.hidden && button?.disabled ? status.textContent : null;
      },
      undefined,
      { timeout: 1000, polling: 20 },
    );
    const clicked = page.click('button:has-text("Audit page")');
    assert.match(String(await (await busy).jsonValue()), /Auditing…/);
    await clicked;
    await nav;
    const id = Number(/\/reports\/(\d+)$/.exec(page.url())![1]);
    assert.equal(await page.textContent('.summary__url'), `${h.fixture.origin}/slow`);
    // the owner's page on a phone: the score on the first screen, the schedule form below it
    // (issue 23 §5)
    await page.setViewportSize({ width: 390, height: 844 });
    const gauge = (await page.locator('.summary__gauge').boundingBox())!;
    const scheduleBox = (await page.locator('#schedule').boundingBox())!;
    assert.ok(gauge.y + gauge.height <= 844, `the score is on the first screen (${gauge.y})`);
    assert.ok(scheduleBox.y > gauge.y + gauge.height, 'the schedule form comes after the score');
    await page.setViewportSize({ width: 1280, height: 900 });

    // re-run
    await page.goto(`${base}/dashboard`);
    await page.screenshot({ path: new URL('dashboard-desktop.png', OUT).pathname, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: new URL('dashboard-phone.png', OUT).pathname, fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
    const row = page.locator(`#report-${id}`);
    const before = (await h.services.reports.get(h.bob.id, id)).generatedAt;
    await Promise.all([
      page.waitForURL(/done=rerun/, { timeout: 15_000 }),
      row.locator('button:has-text("Re-run")').click(),
    ]);
    assert.ok(await page.locator('text=The report was audited again.').isVisible());
    assert.notEqual((await h.services.reports.get(h.bob.id, id)).generatedAt, before);

    // privacy: make it private; an anonymous browser then gets a 404
    await row.locator('summary:has-text("Privacy")').click();
    await row.locator(`#privacy-${id}`).selectOption('1');
    await Promise.all([page.waitForURL(/done=privacy/), row.locator('button:has-text("Save")').click()]);
    assert.equal(await row.locator('.privacy').textContent(), 'Private');
    const anon = await newPage();
    assert.equal((await anon.goto(`${base}/reports/${id}`))?.status(), 404);

    // delete
    await Promise.all([page.waitForURL(/done=deleted/), row.locator('button:has-text("Delete")').click()]);
    assert.equal(await page.locator(`#report-${id}`).count(), 0);
    await assert.rejects(h.services.reports.get(h.bob.id, id));

    // projects: listed and deleted
    await h.report(h.bob, '/', 0, undefined, 'bobs');
    await page.goto(`${base}/dashboard/projects`);
    const project = page.locator('.project-row', { hasText: 'bobs.test' });
    await Promise.all([
      page.waitForURL(/done=project_deleted/),
      project.locator('button:has-text("Delete")').click(),
    ]);
    assert.equal(await page.locator('.project-row', { hasText: 'bobs.test' }).count(), 0);
  });

  test('hostile text from the audited page renders as text; no dialog fires', async () => {
    const xss = await h.report(h.alice, '/xss');
    const page = await newPage();
    let dialogs = 0;
    page.on('dialog', (d) => {
      dialogs++;
      void d.dismiss();
    });
    await page.goto(`${base}/reports/${xss.id}`);
    const text = (await page.textContent('main')) ?? '';
    assert.ok(text.includes(XSS_TITLE), 'the title shows as text');
    assert.ok(text.includes(XSS_ATTR), 'the attribute-breaking string shows as text');
    const injected = await page.evaluate(
      () =>
        document.querySelectorAll('main script, main img, main [onerror], main [onload], main iframe').length,
    );
    assert.equal(injected, 0);
    await page.waitForTimeout(200);
    assert.equal(dialogs, 0);
  });

  test('axe-core finds no serious or critical violations on the report page and the dashboard', async () => {
    // axe is injected as an inline script: the test's own context bypasses the page's CSP
    const page = await newPage({ bypassCSP: true });
    await page.goto(`${base}/reports/${pub.id}`);
    assert.deepEqual(await seriousViolations(page), []);

    await page.goto(`${base}/login`);
    assert.deepEqual(await seriousViolations(page), []);
    await signIn(page, h.alice.key);
    assert.deepEqual(await seriousViolations(page), []);
  });

  test('no page broke its Content-Security-Policy or threw', () => {
    assert.deepEqual(
      chromium.consoleErrors.filter((e) => !/status of (404|401|422|429)/.test(e)),
      [],
    );
  });
});
