// Branded PDF reports (docs/rendering.md, "Branded PDFs"), in real headless Chromium, on SQLite
// and PostgreSQL:
//   - GET /reports/{id}.pdf follows the report page's rules: a public report for anyone, a
//     private one for its owner only (others 404), a password report for the owner or a browser
//     that entered the password (others go to the password form);
//   - GET /api/v1/reports/{id}/pdf: the key's own reports (another user's: 404);
//   - pdftotext finds the owner's brand name, "prepared for" line, the score and every failed
//     check's title; pdfinfo counts more than one page; pdftoppm's picture of page 1 is saved in
//     test-output/pdf/; a report with several runs has its history chart;
//   - the dashboard's new-audit form with its render box makes a rendered audit, whose PDF has
//     the "What JavaScript changed" section;
//   - the printing browser makes no network request: a document that references a listener on
//     127.0.0.1 leaves it untouched, and the request is reported blocked.
// Without Chromium (a separate suite, never skipped): 422 under errors.render saying why.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync, existsSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { Renderer } from '../../src/render/browser.js';
import type { StoredReport } from '../../src/services/reports/types.js';
import { buildTestApp, describeEachDialect, type TestApp } from '../helpers/app.js';
import { Browser } from '../helpers/browser.js';
import { chromiumSkip } from '../helpers/chromium.js';
import { sqliteDialect } from '../helpers/db.js';
import { buildUser, type TestUser } from '../helpers/factories.js';
import { testRenderer } from '../helpers/renderer.js';

const OUT = join(process.cwd(), 'test-output', 'pdf');
/** poppler-utils reads the PDFs (installed with Chromium by .ci/run) */
const POPPLER = ['pdftotext', 'pdfinfo', 'pdftoppm'].every((b) => existsSync(`/usr/bin/${b}`));
if (!POPPLER && process.env.PAGEGRADE_REQUIRE_BROWSER === '1')
  throw new Error(
    'poppler-utils (pdftotext, pdfinfo, pdftoppm) is required with PAGEGRADE_REQUIRE_BROWSER=1',
  );
const skip =
  chromiumSkip ||
  (!POPPLER ? 'poppler-utils (pdftotext, pdfinfo, pdftoppm) not installed: PDF tests skipped' : false);
if (skip && skip !== chromiumSkip) console.log(`# ${skip}`);
const PNG_1X1 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const BRAND = 'Acme Web Agency';
const CLIENT = 'Example Gardens Ltd';

/** A PDF's text (pdftotext), whitespace folded to single spaces. */
function pdfText(file: string): string {
  return execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
}

function pdfPages(file: string): number {
  const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
  return Number(/^Pages:\s+(\d+)/m.exec(info)?.[1] ?? 0);
}

/** Saves the PDF and a 50 dpi PNG of its first page under test-output/pdf/. */
function save(name: string, body: Buffer): string {
  mkdirSync(OUT, { recursive: true });
  const file = join(OUT, `${name}.pdf`);
  writeFileSync(file, body);
  execFileSync('pdftoppm', [
    '-png',
    '-r',
    '50',
    '-f',
    '1',
    '-l',
    '1',
    '-singlefile',
    file,
    join(OUT, `${name}-page1`),
  ]);
  const png = join(OUT, `${name}-page1.png`);
  assert.ok(existsSync(png) && statSync(png).size > 1000, `${png} written`);
  return file;
}

describeEachDialect('branded PDF reports', { skip }, (dialect) => {
  let t: TestApp;
  let renderer: Renderer;
  let alice: TestUser;
  let bob: TestUser;
  let pub: StoredReport;
  let priv: StoredReport;
  let locked: StoredReport;
  const tag = dialect.name;

  before(async () => {
    renderer = testRenderer({ timeoutMs: 60_000 });
    t = await buildTestApp(dialect, { renderer });
    alice = await buildUser(t.services, 'alice');
    bob = await buildUser(t.services, 'bob');
    const res = await t.request({
      method: 'PUT',
      url: '/api/v1/account/branding',
      headers: { ...alice.auth, 'content-type': 'application/json' },
      payload: JSON.stringify({
        name: BRAND,
        accent_color: '#0f766e',
        contact: 'audits@acme.example',
        prepared_for: CLIENT,
        logo: `data:image/png;base64,${PNG_1X1}`,
      }),
    });
    assert.equal(res.statusCode, 200, res.body);
    // the kit's /bad page fails many checks
    pub = await t.services.reports.create(alice.id, { url: `${t.site('shop')}/bad`, privacy: 0 });
    priv = await t.services.reports.create(alice.id, { url: `${t.site('private')}/bad`, privacy: 1 });
    locked = await t.services.reports.create(alice.id, {
      url: `${t.site('locked')}/bad`,
      privacy: 2,
      password: 'open sesame',
    });
  });

  after(async () => {
    await renderer?.close();
    await t?.close();
  });

  const failedTitles = (r: StoredReport) =>
    Object.values(r.results)
      .filter((c) => c.passed === false)
      .map((c) => c.title);

  test('a public report: anyone downloads it; brand, client, score and every failed check are in it', async () => {
    const res = await new Browser(t.app).get(`/reports/${pub.id}.pdf`);
    assert.equal(res.statusCode, 200, res.body.slice(0, 500));
    assert.equal(res.headers['content-type'], 'application/pdf');
    assert.match(
      String(res.headers['content-disposition']),
      /^inline; filename="pagegrade-shop\.test-\d{4}-\d{2}-\d{2}\.pdf"$/,
    );
    assert.equal(res.rawPayload.subarray(0, 5).toString(), '%PDF-');
    const file = save(`${tag}-public`, res.rawPayload);
    const text = pdfText(file);
    assert.ok(text.includes(BRAND), 'brand name');
    assert.ok(text.includes(CLIENT), 'prepared for');
    assert.ok(text.includes('audits@acme.example'), 'contact');
    assert.ok(text.includes(`Score ${pub.score} out of 100`), `score ${pub.score}`);
    const titles = failedTitles(pub);
    assert.ok(titles.length >= 5, `several failed checks (${titles.length})`);
    const missing = titles.filter((title) => !text.includes(title.replace(/\s+/g, ' ')));
    assert.deepEqual(missing, [], 'every failed check title is in the PDF');
    assert.ok(text.includes('Failed checks by priority') && text.includes('Every check'));
    assert.match(text, /how to fix/i);
    assert.match(text, /Page 1 of \d+/, 'the footer numbers pages');
    assert.ok(pdfPages(file) > 1, 'more than one page');
  });

  test('a private report: its owner only (anonymous and another user: 404)', async () => {
    assert.equal((await new Browser(t.app).get(`/reports/${priv.id}.pdf`)).statusCode, 404);
    const other = new Browser(t.app);
    await other.login(bob.key);
    assert.equal((await other.get(`/reports/${priv.id}.pdf`)).statusCode, 404);
    const owner = new Browser(t.app);
    await owner.login(alice.key);
    const res = await owner.get(`/reports/${priv.id}.pdf`);
    assert.equal(res.statusCode, 200);
    const text = pdfText(save(`${tag}-private`, res.rawPayload));
    assert.ok(text.includes(BRAND));
  });

  test('a password report: only with access (the password entered, or the owner)', async () => {
    const visitor = new Browser(t.app);
    let res = await visitor.get(`/reports/${locked.id}.pdf`);
    assert.equal(res.statusCode, 303, res.body.slice(0, 300));
    assert.equal(res.headers.location, `/reports/${locked.id}`);
    assert.notEqual(res.headers['content-type'], 'application/pdf');
    const csrf = await visitor.csrf(`/reports/${locked.id}`);
    res = await visitor.post(`/reports/${locked.id}`, { _csrf: csrf, password: 'wrong' });
    assert.equal(res.statusCode, 401, res.body.slice(0, 300));
    assert.equal((await visitor.get(`/reports/${locked.id}.pdf`)).statusCode, 303);
    res = await visitor.post(`/reports/${locked.id}`, { _csrf: csrf, password: 'open sesame' });
    assert.equal(res.statusCode, 303, res.body.slice(0, 300));
    res = await visitor.get(`/reports/${locked.id}.pdf`);
    assert.equal(res.statusCode, 200);
    assert.ok(pdfText(save(`${tag}-password`, res.rawPayload)).includes(`Score ${locked.score} out of 100`));
    const owner = new Browser(t.app);
    await owner.login(alice.key);
    assert.equal((await owner.get(`/reports/${locked.id}.pdf`)).statusCode, 200);
  });

  test('the API: the key owner downloads it (attachment with download=1); another user 404; no key 401', async () => {
    let res = await t.request({
      method: 'GET',
      url: `/api/v1/reports/${priv.id}/pdf?download=1`,
      headers: alice.auth,
    });
    assert.equal(res.statusCode, 200, res.body.slice(0, 300));
    assert.equal(res.headers['content-type'], 'application/pdf');
    assert.match(
      String(res.headers['content-disposition']),
      /^attachment; filename="pagegrade-private\.test-\d{4}-\d{2}-\d{2}\.pdf"$/,
    );
    assert.ok(pdfText(save(`${tag}-api`, res.rawPayload)).includes(BRAND));
    res = await t.request({ method: 'GET', url: `/api/v1/reports/${priv.id}/pdf`, headers: bob.auth });
    assert.equal(res.statusCode, 404);
    assert.deepEqual(res.json(), { message: 'No such report.' });
    res = await t.request({ method: 'GET', url: `/api/v1/reports/${priv.id}/pdf` });
    assert.equal(res.statusCode, 401);
  });

  test("without branding: Pagegrade's name; with history: the score chart", async () => {
    const r = await t.services.reports.create(bob.id, { url: `${t.site('bob')}/`, privacy: 0 });
    await t.services.reports.update(bob.id, r.id, { results: true });
    const res = await t.request({ method: 'GET', url: `/api/v1/reports/${r.id}/pdf`, headers: bob.auth });
    assert.equal(res.statusCode, 200);
    const text = pdfText(save(`${tag}-history`, res.rawPayload));
    assert.ok(text.includes('Pagegrade'));
    assert.ok(!text.includes(BRAND));
    assert.match(text, /score over time/i, 'the history chart');
  });

  test("the dashboard's new-audit form: the render box makes a rendered audit", async () => {
    const owner = new Browser(t.app);
    await owner.login(alice.key);
    const res = await owner.post('/dashboard/reports', {
      _csrf: await owner.csrf('/dashboard'),
      url: `${t.site('dashboard-render')}/bad`,
      render: '1',
    });
    assert.equal(res.statusCode, 303, res.body.slice(0, 300));
    const id = Number(/^\/reports\/(\d+)$/.exec(String(res.headers.location))?.[1]);
    const report = await t.services.reports.getOwned(alice.id, id);
    assert.equal(report.render?.mode, 'rendered');
    assert.equal(report.render?.status, 'completed');
    // its PDF has the rendered audit's own section
    const pdf = await owner.get(`/reports/${id}.pdf`);
    assert.equal(pdf.statusCode, 200);
    assert.match(pdfText(save(`${tag}-rendered`, pdf.rawPayload)), /what javascript changed/i);
  });

  test('the printing browser makes no network request', async () => {
    let connections = 0;
    const listener = createServer((s) => {
      connections++;
      s.destroy();
    });
    await new Promise<void>((r) => listener.listen(0, '127.0.0.1', r));
    const port = (listener.address() as { port: number }).port;
    try {
      const doc = `<!doctype html><html><head><link rel="stylesheet" href="http://127.0.0.1:${port}/a.css"></head>
<body><h1>Offline</h1><img src="http://127.0.0.1:${port}/b.png"><iframe src="http://127.0.0.1:${port}/c"></iframe></body></html>`;
      const { pdf, blocked } = await renderer.pdf(doc, { footerTemplate: '<span></span>' });
      assert.equal(pdf.subarray(0, 5).toString(), '%PDF-');
      assert.equal(connections, 0, 'the listener was never reached');
      assert.ok(
        blocked.some((u) => u.includes(`:${port}/b.png`)),
        JSON.stringify(blocked),
      );
    } finally {
      listener.close();
    }
  });
});

describe('PDF reports without Chromium', () => {
  let t: TestApp;
  let alice: TestUser;
  let report: StoredReport;
  before(async () => {
    t = await buildTestApp(sqliteDialect);
    alice = await buildUser(t.services, 'alice');
    report = await t.services.reports.create(alice.id, { url: `${t.site('shop')}/bad`, privacy: 0 });
  });
  after(() => t?.close());

  test('the API answers 422 under errors.render, saying why and how to install Chromium', async () => {
    const res = await t.request({
      method: 'GET',
      url: `/api/v1/reports/${report.id}/pdf`,
      headers: alice.auth,
    });
    assert.equal(res.statusCode, 422);
    const body = res.json() as { message: string; errors: { render: string[] } };
    assert.match(body.errors.render[0]!, /PDF reports need Chromium.*apt-get install -y chromium/);
    assert.match(body.errors.render[0]!, /print stylesheet/);
    assert.equal(body.message, body.errors.render[0]);
  });

  test('the page answers 422 in HTML with the reason and the way back to print the page', async () => {
    const res = await new Browser(t.app).get(`/reports/${report.id}.pdf`);
    assert.equal(res.statusCode, 422);
    assert.match(String(res.headers['content-type']), /^text\/html/);
    assert.match(res.body, /PDF reports need Chromium/);
    assert.match(res.body, new RegExp(`href="/reports/${report.id}"`));
    // the report page itself still offers printing (its print stylesheet)
    const page = await new Browser(t.app).get(`/reports/${report.id}`);
    assert.match(page.body, /data-print/);
    assert.match(page.body, new RegExp(`href="/reports/${report.id}.pdf"`));
  });
});
