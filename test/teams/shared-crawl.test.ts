// A project's share link shows its latest crawl as the batch page does (docs/teams.md "Share
// links"), on SQLite and PostgreSQL with a real job engine and a site on loopback: the site
// score, the summary, the site-level findings grouped by priority with their pages, and the
// pages table paged within the share — read-only: the HTML (parsed) has no form and no link but
// the share's own pages and the assets; a bad page number says so and shows the first; a
// revoked link is 404 as before.
import assert from 'node:assert/strict';
import { Parser } from 'htmlparser2';
import { after, before, test } from 'node:test';
import { batchEnded, startBatchApp, type BatchApp } from '../helpers/batch-app.js';
import { describeEachDialect } from '../helpers/app.js';
import { buildUser, type TestUser } from '../helpers/factories.js';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.js';

/** pages of the site besides home: more than the share's 50 rows a page */
const PAGES = 52;

interface Parsed {
  /** every href, src and form action */
  links: string[];
  forms: number;
  /** the text of each <h3> */
  h3: string[];
  /** rows of the pages table's body */
  rows: number;
  text: string;
}

function parse(body: string): Parsed {
  const out: Parsed = { links: [], forms: 0, h3: [], rows: 0, text: '' };
  let inH3 = false;
  let inPagesBody = 0;
  let h3 = '';
  const parser = new Parser({
    onopentag(name, attrs) {
      for (const a of ['href', 'src', 'action', 'formaction'] as const)
        if (attrs[a] !== undefined) out.links.push(attrs[a]);
      if (name === 'form') out.forms++;
      if (name === 'h3') {
        inH3 = true;
        h3 = '';
      }
      if (name === 'table' && attrs.class === 'batch-pages') inPagesBody = 1;
      if (name === 'tbody' && inPagesBody === 1) inPagesBody = 2;
      if (name === 'tr' && inPagesBody === 2) out.rows++;
    },
    ontext(text) {
      out.text += text;
      if (inH3) h3 += text;
    },
    onclosetag(name) {
      if (name === 'h3') {
        inH3 = false;
        out.h3.push(h3.trim());
      }
      if (name === 'table') inPagesBody = 0;
    },
  });
  parser.write(body);
  parser.end();
  return out;
}

describeEachDialect("a project's share link shows its latest crawl", (dialect) => {
  let app: BatchApp;
  let acme: TestUser;
  let site: FixtureServer;

  before(async () => {
    app = await startBatchApp(dialect);
    acme = await buildUser(app.t.services, 'shared-crawl-acme');
    site = await startFixtureServer();
    const links = [
      ...Array.from({ length: PAGES }, (_, i) => `<a href="/p/${i + 1}">Page ${i + 1}</a>`),
      '<a href="/missing">A page that is gone</a>',
    ].join(' ');
    site.route('/', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Home of the shared site</title></head><body><h1>Home</h1>${links}</body></html>`,
      );
    });
    for (let i = 1; i <= PAGES; i++)
      site.route(`/p/${i}`, (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        // every page has the same title: a site-level finding of medium priority
        res.end(
          `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Same title</title></head><body><h1>Page ${i}</h1><a href="/">Home</a></body></html>`,
        );
      });
    site.route('/missing', (_req, res) => {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<!doctype html><title>Not found</title>');
    });
  });
  after(async () => {
    await app?.close();
    await site?.close();
  });

  test('score, summary, findings by priority with their pages, the pages table; nothing to click out of the share', async () => {
    const b = await app.t.services.batches.create(acme.id, {
      url: `${site.origin}/`,
      mode: 'crawl',
      maxPages: 100,
    });
    const ended = await batchEnded(app.t, acme.id, b.id);
    assert.equal(ended.status, 'done', String(ended.error));
    assert.equal(ended.progress.audited, PAGES + 1);
    const projects = (
      await app.t.request({ method: 'GET', url: '/api/v1/projects', headers: acme.auth })
    ).json().data as { project: string }[];
    const project = projects[0]!.project;
    const made = await app.t.request({
      method: 'POST',
      url: `/api/v1/projects/${encodeURIComponent(project)}/shares`,
      headers: { ...acme.auth, 'content-type': 'application/json' },
      payload: '{}',
    });
    assert.equal(made.statusCode, 201, made.body);
    const share = made.json().data as { id: number; url: string };
    const path = new URL(share.url).pathname;

    const res = await app.t.request({ method: 'GET', url: path });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['cache-control'], 'no-store');
    const page = parse(res.body);
    // read-only: no form; every link is the share's own or an asset (the favicon is a data: image)
    assert.equal(page.forms, 0);
    const out = page.links.filter(
      (l) =>
        !l.startsWith('/assets/') &&
        !l.startsWith('data:image/') &&
        l !== '#main' &&
        !l.startsWith(`${path}?`),
    );
    assert.deepEqual(out, [], `links out of the share: ${out.join(', ')}`);
    assert.ok(page.links.includes(`${path}?page=2#pages-title`), 'the table pages within the share');
    // the score, the summary, the findings grouped by priority with their pages
    assert.match(page.text, /Site score: \d+/);
    assert.match(page.text, /Summary/);
    assert.match(page.text, /Score distribution/);
    // the groups in priority order, each with its count
    const groups = page.h3.filter((h) => /priority \(\d+\)$/.test(h)).map((h) => h.replace(/ \(\d+\)$/, ''));
    assert.deepEqual(groups.slice(0, 2), ['High priority', 'Medium priority']);
    const high = res.body.slice(
      res.body.indexOf('id="priority-high"'),
      res.body.indexOf('id="priority-medium"'),
    );
    assert.match(high, /Internal links to pages that answered 4xx\/5xx/);
    assert.ok(high.includes(`${site.origin}/`), 'the broken link finding names its page');
    assert.match(res.body.slice(res.body.indexOf('id="priority-medium"')), /Pages that share a title/);
    // the pages table: 50 rows here, the rest on page 2
    assert.equal(page.rows, 50);
    assert.match(page.text, /1–50 of 54/);
    const second = parse((await app.t.request({ method: 'GET', url: `${path}?page=2` })).body);
    assert.equal(second.rows, 4);
    assert.match(second.text, /The page answered HTTP 404/);
    assert.ok(second.links.includes(`${path}?page=1#pages-title`));
    // a bad page number: said, and the first page shown
    const bad = await app.t.request({ method: 'GET', url: `${path}?page=abc` });
    assert.equal(bad.statusCode, 200);
    assert.match(bad.body, /The page cannot be “abc”, so the first page is shown/);
    assert.equal(parse(bad.body).rows, 50);
    // never the owner's other things: no report link, no dashboard
    assert.doesNotMatch(res.body, /\/reports\/\d|\/dashboard/);

    // revoked: the same 404 as before
    const revoked = await app.t.request({
      method: 'DELETE',
      url: `/api/v1/shares/${share.id}`,
      headers: acme.auth,
    });
    assert.equal(revoked.statusCode, 204);
    assert.equal((await app.t.request({ method: 'GET', url: path })).statusCode, 404);
  });
});
