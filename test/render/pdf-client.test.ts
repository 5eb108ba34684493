// What a client's PDF holds (docs/teams.md, "What a client sees"), in real headless Chromium,
// on SQLite and PostgreSQL: project A's own branding on A's reports' PDFs and the
// organisation's on project B's (pdftotext); the online report's address printed on the cover
// and a clickable link (a /URI annotation with PAGEGRADE_PUBLIC_URL/reports/{id}); `?download=1`
// on the page's and the API's PDF routes answers `attachment;
// filename="pagegrade-<host>-<date>.pdf"`, `inline` otherwise; a bad `download` is a 422.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { after, before, test } from 'node:test';
import type { Renderer } from '../../src/render/browser.js';
import { buildTestApp, describeEachDialect, PUBLIC_URL, type TestApp } from '../helpers/app.js';
import { Browser } from '../helpers/browser.js';
import { chromiumSkip } from '../helpers/chromium.js';
import { buildUser, type TestUser } from '../helpers/factories.js';
import { testRenderer } from '../helpers/renderer.js';

const OUT = join(process.cwd(), 'test-output', 'pdf');
const POPPLER = existsSync('/usr/bin/pdftotext');
const skip =
  chromiumSkip || (!POPPLER ? 'pdftotext (poppler-utils) not installed: PDF tests skipped' : false);
if (skip && skip !== chromiumSkip) console.log(`# ${skip}`);

const pdfText = (file: string) =>
  execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');

/** Every /URI of a PDF's link annotations (in its objects, compressed object streams included). */
function uris(pdf: Buffer): string[] {
  const texts = [pdf.toString('latin1')];
  // object streams (/Type /ObjStm) are Flate-compressed: inflate every stream and read them too
  const raw = pdf.toString('latin1');
  const re = /stream\r?\n/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(raw))) {
    const start = m.index + m[0].length;
    const end = raw.indexOf('endstream', start);
    if (end < 0) break;
    try {
      texts.push(inflateSync(pdf.subarray(start, end)).toString('latin1'));
    } catch {
      // not Flate (or an image): no annotation there
    }
  }
  return texts.flatMap((s) => [...s.matchAll(/\/URI\s*\(([^)]*)\)/g)].map((x) => x[1]!));
}

describeEachDialect(
  'a client’s PDF: project branding, the online link, the download name',
  { skip },
  (dialect) => {
    let t: TestApp;
    let renderer: Renderer;
    let agency: TestUser;
    const ids: Record<string, number> = {};
    const A = 'client-a.canned.test';
    const B = 'client-b.canned.test';

    before(async () => {
      mkdirSync(OUT, { recursive: true });
      renderer = testRenderer({ timeoutMs: 60_000 });
      t = await buildTestApp(dialect, { renderer, logLevel: 'silent' });
      agency = await buildUser(t.services, 'agency');
      for (const host of [A, B]) {
        const r = await t.request({
          method: 'POST',
          url: '/api/v1/reports',
          headers: { ...agency.auth, 'content-type': 'application/json' },
          payload: JSON.stringify({ url: `http://${host}/` }),
        });
        assert.equal(r.statusCode, 201, r.body);
        ids[host] = r.json().data.id;
      }
      const put = (url: string, body: unknown) =>
        t.request({
          method: 'PUT',
          url,
          headers: { ...agency.auth, 'content-type': 'application/json' },
          payload: JSON.stringify(body),
        });
      assert.equal(
        (await put('/api/v1/account/branding', { name: 'Acme Agency', prepared_for: 'Our clients' }))
          .statusCode,
        200,
      );
      assert.equal(
        (await put(`/api/v1/projects/${A}/branding`, { prepared_for: 'Client A Gardens Ltd' })).statusCode,
        200,
      );
    });
    after(async () => {
      await renderer?.close();
      await t?.close();
    });

    const save = (name: string, body: Buffer) => {
      const file = join(OUT, `${dialect.name}-${name}.pdf`);
      writeFileSync(file, body);
      return file;
    };

    test("project A's PDF shows A's client; project B's the organisation's; both link to the online report", async () => {
      const b = new Browser(t.app);
      await b.login(agency.key);
      for (const [host, client, absent] of [
        [A, 'Client A Gardens Ltd', 'Our clients'],
        [B, 'Our clients', 'Client A Gardens Ltd'],
      ] as const) {
        const id = ids[host]!;
        const res = await b.get(`/reports/${id}.pdf`);
        assert.equal(res.statusCode, 200, res.body.slice(0, 300));
        assert.equal(res.headers['content-type'], 'application/pdf');
        const text = pdfText(save(`client-${host}`, res.rawPayload));
        assert.ok(text.includes(`Prepared for ${client}`), `${host}: prepared for ${client}`);
        assert.ok(!text.includes(absent), `${host}: not ${absent}`);
        assert.ok(text.includes('Prepared by Acme Agency'));
        const online = `${PUBLIC_URL}/reports/${id}`;
        assert.ok(text.includes(online), `${host}: the online report's address is printed`);
        assert.ok(
          uris(res.rawPayload).includes(online),
          `${host}: a link annotation to ${online} (${uris(res.rawPayload).join(', ')})`,
        );
      }
    });

    test('?download=1 answers attachment with pagegrade-<host>-<date>.pdf; inline otherwise (page and API)', async () => {
      const id = ids[A]!;
      const date = (await t.services.reports.getOwned(agency.id, id)).generatedAt.slice(0, 10);
      const name = `pagegrade-${A}-${date}.pdf`;
      const b = new Browser(t.app);
      await b.login(agency.key);
      let res = await b.get(`/reports/${id}.pdf?download=1`);
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-disposition'], `attachment; filename="${name}"`);
      res = await b.get(`/reports/${id}.pdf`);
      assert.equal(res.headers['content-disposition'], `inline; filename="${name}"`);
      const api = (query: string) =>
        t.request({ method: 'GET', url: `/api/v1/reports/${id}/pdf${query}`, headers: agency.auth });
      res = await api('?download=1');
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-disposition'], `attachment; filename="${name}"`);
      assert.equal(res.rawPayload.subarray(0, 5).toString(), '%PDF-');
      res = await api('');
      assert.equal(res.headers['content-disposition'], `inline; filename="${name}"`);
      res = await api('?download=yes');
      assert.equal(res.statusCode, 422, res.body);
      assert.ok(res.json().errors.download, res.body);
      // the report page offers both
      const page = await b.get(`/reports/${id}`);
      assert.ok(page.body.includes(`href="/reports/${id}.pdf?download=1"`));
    });
  },
);
