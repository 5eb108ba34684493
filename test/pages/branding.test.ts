// The dashboard's branding page (/dashboard/branding), on SQLite and PostgreSQL: signed-in
// only, linked from the navigation; saving sets what the API reads; errors come back beside
// their fields in the form's words, with the values sent; an empty file field keeps the logo and
// the box removes it; clearing goes back to nothing. The dashboard's new-audit form has the
// "render with a browser" box (render=1), whose error (no Chromium here) is shown beside it. In
// real Chromium (SQLite): choosing a logo file reads it into the form (pagegrade.js) and saves it;
// a file over 256 KB is refused beside the field before sending.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeEachDialect } from '../helpers/app.js';
import { chromiumSession, chromiumSkip, type ChromiumSession } from '../helpers/chromium.js';
import { sqliteDialect } from '../helpers/db.js';
import { Browser, createPagesHarness, type PagesHarness } from '../helpers/pages-harness.js';

const PNG_1X1 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

describeEachDialect('branding page', (dialect) => {
  let h: PagesHarness;
  let b: Browser;

  before(async () => {
    h = await createPagesHarness(dialect);
    b = new Browser(h.app);
    await b.login(h.alice.key);
  });
  after(() => h?.close());

  const save = async (fields: Record<string, string>) =>
    b.post('/dashboard/branding', { _csrf: await b.csrf('/dashboard/branding'), ...fields });

  test('signed-in only; in the navigation', async () => {
    const anon = await new Browser(h.app).get('/dashboard/branding');
    assert.equal(anon.statusCode, 303);
    assert.match(String(anon.headers.location), /^\/login\?next=/);
    const page = await b.get('/dashboard/branding');
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /<a href="\/dashboard\/branding">Branding<\/a>/);
    assert.match(page.body, /<form method="post" action="\/dashboard\/branding"/);
    assert.match(page.body, /No logo yet/);
    // no Chromium in this app: the page says PDFs cannot be printed here, and why
    assert.match(page.body, /PDF reports need Chromium/);
  });

  test('saving sets what the API reads; the page shows it with the logo as a data: image', async () => {
    const res = await save({
      name: 'Acme Web Agency',
      accent_color: '#0F766E',
      contact: 'audits@acme.example',
      prepared_for: 'Example Ltd',
      logo: `data:image/png;base64,${PNG_1X1}`,
    });
    assert.equal(res.statusCode, 303, res.body.slice(0, 300));
    assert.equal(res.headers.location, '/dashboard/branding?done=saved');
    const page = await b.get('/dashboard/branding?done=saved');
    assert.match(page.body, /The branding was saved/);
    assert.match(page.body, /value="Acme Web Agency"/);
    assert.match(page.body, /value="#0f766e"/);
    assert.ok(page.body.includes(`<img class="branding-logo__img" src="data:image/png;base64,${PNG_1X1}"`));
    const branding = await h.services.branding.get(h.alice.id);
    assert.equal(branding.name, 'Acme Web Agency');
    assert.equal(branding.preparedFor, 'Example Ltd');
    assert.equal(branding.logo?.type, 'image/png');
  });

  test('errors beside their fields, in the form words, with the values sent; nothing saved', async () => {
    const big = Buffer.concat([Buffer.from(PNG_1X1, 'base64'), Buffer.alloc(270 * 1024)]).toString('base64');
    const res = await save({
      name: 'Renamed',
      accent_color: 'teal',
      contact: 'x'.repeat(201),
      prepared_for: '',
      logo: `data:image/png;base64,${big}`,
    });
    assert.equal(res.statusCode, 422);
    // each message once, next to its field: no alert repeats them
    assert.doesNotMatch(res.body, /class="alert alert--error"/);
    assert.match(
      res.body,
      /id="branding-accent_color" name="accent_color" type="text" value="teal"[^>]*aria-invalid="true" aria-describedby="branding-accent_color-error"/,
    );
    assert.match(
      res.body,
      /<p class="field__error" id="branding-accent_color-error">Enter the accent colour as # and six hexadecimal digits \(#rrggbb\)/,
    );
    assert.match(res.body, /id="branding-contact-error">The contact line can be at most 200 characters\./);
    assert.match(res.body, /id="branding-logo-error">The logo must be at most 256 KB; this one is 271 KB/);
    assert.match(res.body, /value="Renamed"/);
    assert.equal((await h.services.branding.get(h.alice.id)).name, 'Acme Web Agency');
  });

  test('an empty file field keeps the logo; the box removes it; clearing empties everything', async () => {
    let res = await save({ name: 'Acme', accent_color: '', contact: '', prepared_for: '', logo: '' });
    assert.equal(res.statusCode, 303, res.body.slice(0, 300));
    let branding = await h.services.branding.get(h.alice.id);
    assert.equal(branding.name, 'Acme');
    assert.equal(branding.accentColor, null);
    assert.equal(branding.logo?.type, 'image/png', 'logo kept');
    res = await save({ name: 'Acme', remove_logo: '1' });
    assert.equal(res.statusCode, 303);
    assert.equal((await h.services.branding.get(h.alice.id)).logo, null);
    res = await b.post('/dashboard/branding/delete', { _csrf: await b.csrf('/dashboard/branding') });
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, '/dashboard/branding?done=cleared');
    branding = await h.services.branding.get(h.alice.id);
    assert.equal(branding.updatedAt, null);
    assert.match((await b.get('/dashboard/branding?done=cleared')).body, /plain Pagegrade look/);
  });

  test('the dashboard: a PDF link per report; the new-audit form renders with a browser on request', async () => {
    const r = await h.report(h.alice, '/');
    const dash = await b.get('/dashboard');
    assert.ok(dash.body.includes(`href="/reports/${r.id}.pdf"`));
    assert.match(dash.body, /<input id="create-render" name="render" type="checkbox" value="1">/);
    // no Chromium in this app: the box's error beside it, the box still ticked
    const res = await b.post('/dashboard/reports', {
      _csrf: await b.csrf('/dashboard'),
      url: `${h.site('render')}/`,
      render: '1',
    });
    assert.equal(res.statusCode, 422);
    assert.match(
      res.body,
      /id="create-render" name="render" type="checkbox" value="1" checked aria-invalid="true"/,
    );
    assert.match(res.body, /<p class="field__error" id="create-render-error">[^<]*Chromium/);
  });
});

describe('branding page in Chromium', { skip: chromiumSkip }, () => {
  let h: PagesHarness;
  let chromium: ChromiumSession;
  let base: string;
  const dir = join(process.cwd(), 'test-output', 'branding');

  before(async () => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'logo.png'), Buffer.from(PNG_1X1, 'base64'));
    writeFileSync(
      join(dir, 'big.png'),
      Buffer.concat([Buffer.from(PNG_1X1, 'base64'), Buffer.alloc(300 * 1024)]),
    );
    h = await createPagesHarness(sqliteDialect);
    base = await h.app.listen({ port: 0, host: '127.0.0.1' });
    // Playwright's default viewport
    chromium = await chromiumSession(base, { viewport: { width: 1280, height: 720 } });
  });
  after(async () => {
    await chromium?.close();
    await h?.close();
  });

  test('choosing a logo file saves it; a file over 256 KB is refused beside the field', async () => {
    const page = await chromium.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await chromium.signIn(page, h.alice.key);
    await page.goto(`${base}/dashboard/branding`);

    await page.setInputFiles('#branding-logo-file', join(dir, 'big.png'));
    await page.waitForSelector('[data-logo-error]:not([hidden])');
    assert.match((await page.textContent('[data-logo-error]'))!, /at most 256 KB; this one is 301 KB/);
    assert.equal(await page.inputValue('#branding-logo'), '');

    await page.setInputFiles('#branding-logo-file', join(dir, 'logo.png'));
    await page.waitForFunction(
      () => (document.getElementById('branding-logo') as HTMLInputElement).value !== '',
    );
    assert.equal(await page.isHidden('[data-logo-error]'), true);
    await page.fill('#branding-name', 'Acme from Chromium');
    await Promise.all([page.waitForURL(/done=saved/), page.click('button:has-text("Save branding")')]);
    await page.screenshot({ path: join(dir, 'branding-page.png'), fullPage: true });
    const b = await h.services.branding.get(h.alice.id);
    assert.equal(b.name, 'Acme from Chromium');
    assert.equal(b.logo?.dataUrl, `data:image/png;base64,${PNG_1X1}`);
    assert.equal(await page.locator('img.branding-logo__img').count(), 1);
    assert.deepEqual(errors, []);
    await page.context().close();
  });
});
