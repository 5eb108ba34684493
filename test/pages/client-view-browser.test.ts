// What a client sees, in real headless Chromium (app listening on 127.0.0.1:0, SQLite): a
// viewer limited to their project signs in; their dashboard, project page and report page show
// no write form and no button but sign-out and the filters (read from the rendered DOM), the
// navigation offers no page they may not open, and nothing the pages load or link to answers
// 403 (every response seen while loading, then every same-site link followed in the same
// browser session). A member's report page, for contrast, shows the Re-run form.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { chromiumSession, chromiumSkip, type ChromiumSession } from '../helpers/chromium.js';
import { sqliteDialect } from '../helpers/db.js';
import { buildUser } from '../helpers/factories.js';

describe(
  'a viewer’s dashboard in headless Chromium [sqlite]',
  { skip: chromiumSkip || sqliteDialect.skip },
  () => {
    let t: TestApp;
    let chromium: ChromiumSession;
    let base: string;
    let viewerKey: string;
    let memberKey: string;
    let reportId: number;
    const project = 'client-a.canned.test';

    before(async () => {
      t = await buildTestApp(sqliteDialect, { logLevel: 'silent' });
      const owner = await buildUser(t.services, 'agency');
      for (const host of [project, 'client-b.canned.test']) {
        const r = await t.request({
          method: 'POST',
          url: '/api/v1/reports',
          headers: { ...owner.auth, 'content-type': 'application/json' },
          payload: JSON.stringify({ url: `http://${host}/`, privacy: 1 }),
        });
        assert.equal(r.statusCode, 201, r.body);
        if (host === project) reportId = r.json().data.id;
      }
      await t.services.users.create('client-bob');
      await t.services.organizations.addMember('agency', 'client-bob', 'viewer', [project]);
      viewerKey = (await t.services.keys.create('client-bob', { org: 'agency' })).key;
      await t.services.users.create('staff');
      await t.services.organizations.addMember('agency', 'staff', 'member');
      memberKey = (await t.services.keys.create('staff', { org: 'agency' })).key;
      base = await t.app.listen({ port: 0, host: '127.0.0.1' });
      chromium = await chromiumSession(base);
    });
    after(async () => {
      await chromium?.close();
      await t?.close();
    });

    test('no write controls, and nothing loaded or linked answers 403', async () => {
      const page = await chromium.newPage();
      const refused: string[] = [];
      page.on('response', (r) => {
        if (r.status() === 403) refused.push(`${r.status()} ${r.url()}`);
      });
      await chromium.signIn(page, viewerKey);
      const links = new Set<string>();
      for (const path of [
        '/dashboard',
        '/dashboard/projects',
        `/dashboard/projects/${project}`,
        `/reports/${reportId}`,
      ]) {
        const res = await page.goto(`${base}${path}`);
        assert.equal(res?.status(), 200, path);
        const controls = await page.evaluate(() => ({
          posts: Array.from(document.querySelectorAll('form'))
            .filter((f) => f.method.toLowerCase() === 'post')
            .map((f) => f.getAttribute('action')),
          buttons: Array.from(document.querySelectorAll('button'))
            .filter((b) => b.type === 'submit')
            .map((b) => (b.textContent ?? '').replace(/\s+/g, ' ').trim()),
          links: Array.from(document.querySelectorAll('a[href^="/"]')).map((a) => a.getAttribute('href')!),
          nav: Array.from(document.querySelectorAll('.site-nav a')).map((a) => a.getAttribute('href')),
        }));
        assert.deepEqual(controls.posts, ['/logout'], `${path}: only the sign-out form`);
        for (const b of controls.buttons) assert.match(b, /^(Sign out|Apply)/, `${path}: button "${b}"`);
        // a limited viewer: no batches, schedules, webhooks, branding or members in the nav
        assert.deepEqual(
          controls.nav,
          ['/dashboard', '/dashboard/projects', '/dashboard/keys', '/docs', '/dashboard/account'],
          path,
        );
        for (const l of controls.links) links.add(l);
      }
      assert.ok(links.size >= 8, `${links.size} links`);
      for (const l of links) {
        if (l.startsWith('/logout')) continue;
        const res = await page.request.get(`${base}${l}`, { maxRedirects: 0 });
        assert.notEqual(res.status(), 403, `${l} answers 403 to the viewer who was offered it`);
        assert.ok(res.status() < 500, `${l}: ${res.status()}`);
      }
      assert.deepEqual(refused, [], 'nothing the pages loaded answered 403');
      assert.deepEqual(chromium.consoleErrors, []);

      // a member sees the Re-run form on the same report page
      const other = await chromium.newPage();
      await chromium.signIn(other, memberKey);
      await other.goto(`${base}/reports/${reportId}`);
      assert.equal(await other.locator(`form[action="/dashboard/reports/${reportId}/rerun"]`).count(), 1);
    });
  },
);
