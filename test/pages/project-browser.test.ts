// The project page in real headless Chromium (app listening on 127.0.0.1:0, the real job
// engine, the generated fixture site): with two finished crawls the page renders its charts
// (laid out, coloured by the stylesheet), the settings form shows a 422's error beside its
// field and then saves, and "Crawl now" starts a batch and lands on its page; axe-core, and no
// CSP violation or console error. A screenshot in test-output/.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import {
  chromiumSession,
  chromiumSkip,
  seriousViolations,
  type ChromiumSession,
} from '../helpers/chromium.js';
import { sqliteDialect } from '../helpers/db.js';
import { buildUser, type TestUser } from '../helpers/factories.js';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.js';
import { batchEnded, startBatchApp, type BatchApp } from '../helpers/batch-app.js';

const OUT = new URL('../../test-output/', import.meta.url);

describe(
  'the project page in headless Chromium [sqlite]',
  { skip: chromiumSkip || sqliteDialect.skip },
  () => {
    let app: BatchApp;
    let site: FixtureSite;
    let alice: TestUser;
    let chromium: ChromiumSession;
    let base: string;
    let project: string;

    before(async () => {
      mkdirSync(OUT, { recursive: true });
      app = await startBatchApp(sqliteDialect, { config: { batchMaxPages: 500 } });
      site = await startFixtureSite({ pages: 20, crawlDelay: null });
      alice = await buildUser(app.t.services, 'alice');
      project = new URL(site.origin).hostname;
      const s = app.t.services;
      await s.projects.put(alice.id, project, { start_url: `${site.origin}/`, max_pages: 6 });
      await batchEnded(app.t, alice.id, (await s.projects.crawl(alice.id, project)).id);
      await s.projects.patch(alice.id, project, { max_pages: 15 });
      await batchEnded(app.t, alice.id, (await s.projects.crawl(alice.id, project)).id);
      base = await app.t.app.listen({ port: 0, host: '127.0.0.1' });
      chromium = await chromiumSession(base);
    });
    after(async () => {
      await chromium?.close();
      await app?.close();
      await site?.close();
    });

    test('the charts; a 422 beside its field, then saved; Crawl now lands on the new batch', async () => {
      const page = await chromium.newPage();
      const path = `/dashboard/projects/${project}`;
      await chromium.signIn(page, alice.key, '/dashboard/projects');
      await Promise.all([
        page.waitForURL(`${base}${path}`),
        page.click(`a.project-row__name:has-text("${project}")`),
      ]);
      assert.equal(await page.locator('svg.chart--site-score .chart__point').count(), 2);
      assert.ok(await page.locator('svg.chart--bands').isVisible());
      assert.ok((await page.locator('svg.chart--bands .chart__stack').count()) >= 2 + 3);
      const fill = await page.$eval(
        'svg.chart--bands .chart__stack.band-good',
        (e) => getComputedStyle(e).fill,
      );
      assert.notEqual(fill, 'rgb(0, 0, 0)', 'the stylesheet colours the bars');
      assert.ok(await page.locator('table.project-findings').isVisible());
      await page.screenshot({ path: new URL('project-desktop.png', OUT).pathname, fullPage: true });

      // a 422: the error beside the field, the value kept
      await page.fill('#project-max-pages', '501');
      await Promise.all([
        page.waitForURL(`${base}${path}/settings`),
        page.click('button:has-text("Save settings")'),
      ]);
      assert.match(
        (await page.textContent('#project-max-pages-error'))!,
        /The max_pages must be a whole number from 1 to 500\./,
      );
      assert.equal(await page.getAttribute('#project-max-pages', 'aria-invalid'), 'true');
      assert.equal(await page.inputValue('#project-max-pages'), '501');
      // fixed: saved
      await page.fill('#project-max-pages', '12');
      await page.selectOption('#project-schedule', 'daily');
      await Promise.all([
        page.waitForURL(`${base}${path}?done=project_saved`),
        page.click('button:has-text("Save settings")'),
      ]);
      assert.match((await page.textContent('.alert--success'))!, /settings were saved/);
      assert.equal(await page.inputValue('#project-max-pages'), '12');
      const saved = await app.t.services.projects.get(alice.id, project);
      assert.equal(saved.settings.max_pages, 12);
      assert.deepEqual(saved.settings.schedule, { every: 'daily', timezone: 'UTC' });

      // axe-core is injected inline: in its own context that bypasses the CSP
      const audit = await chromium.newPage({ bypassCSP: true });
      await chromium.signIn(audit, alice.key, path);
      assert.deepEqual(await seriousViolations(audit), []);

      // Crawl now: the new batch's page
      const before = (await app.t.services.batches.list(alice.id, { page: 1, perPage: 10 })).total;
      await Promise.all([
        page.waitForURL(/\/dashboard\/batches\/\d+$/),
        page.click('button:has-text("Crawl now")'),
      ]);
      const id = Number(/(\d+)$/.exec(page.url())![1]);
      assert.equal((await app.t.services.batches.list(alice.id, { page: 1, perPage: 10 })).total, before + 1);
      const batch = await batchEnded(app.t, alice.id, id);
      assert.equal(batch.options.maxPages, 12);
      // the 422 answer itself is logged by Chromium as a failed load; nothing else
      assert.deepEqual(
        chromium.consoleErrors.filter((e) => !e.includes('status of 422')),
        [],
      );
    });
  },
);
