// Custom extraction (issue 21 §6, docs/sites.md "Custom extraction"), on SQLite and PostgreSQL
// with the real job engine and fetcher against a fixture site on 127.0.0.1: a batch's CSS,
// XPath and regex extractors give each audited page its values (a price in a CSS class, an
// element XPath selects, an attribute's value, a regex's capture group, every match with `all`;
// a page without them: null), stored with the page and shown in the CSV and JSON exports and
// the dashboard's pages table; an invalid selector, expression or regex is a 422 naming its
// field; a project's extractors are used by its crawls.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { describeEachDialect, type TestApp } from '../helpers/app.js';
import { batchEnded, startBatchApp, type BatchApp } from '../helpers/batch-app.js';
import { Browser } from '../helpers/browser.js';
import { parseCsv } from '../helpers/csv.js';
import { buildUser, type TestUser } from '../helpers/factories.js';
import { html, startFixtureServer, type FixtureServer } from '../helpers/fixture-server.js';
import { chromiumSkip } from '../helpers/chromium.js';
import { testRenderer } from '../helpers/renderer.js';

const page = (title: string, body: string, head = '') =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title><meta name="description" content="About ${title}."><meta name="viewport" content="width=device-width, initial-scale=1">${head}</head><body><h1>${title}</h1>${body}<p><a href="/">Home</a> <a href="/product">Product</a> <a href="/other">Other</a> <a href="/tags">Tags</a></p></body></html>`;

const EXTRACTORS = [
  { name: 'price', css: '.price' },
  { name: 'sku', xpath: '//div[@id="product"]/span[@class="sku"]' },
  { name: 'brand', xpath: '//meta[@itemprop="brand"]', attribute: 'content' },
  { name: 'og type', css: 'meta[property="og:type"]', attribute: 'content' },
  { name: 'gtm', regex: "GTM-([A-Z0-9]+)'" },
  { name: 'tags', css: 'a[rel="tag"]', all: true },
];

interface ExportPage {
  url: string;
  state: string;
  extracted: Record<string, string | string[] | null>;
}

describeEachDialect('custom extraction', (dialect) => {
  let app: BatchApp;
  let t: TestApp;
  let site: FixtureServer;
  let alice: TestUser;
  let origin = '';
  let batchId = 0;
  // a rendered batch's Chromium: closed in after() (the app does not own it)
  const renderer = chromiumSkip ? null : testRenderer();

  before(async () => {
    app = await startBatchApp(dialect, renderer ? { renderer } : {});
    t = app.t;
    site = await startFixtureServer({
      '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' },
      '/': html(page('Home', '<p>Welcome.</p>')),
      '/product': html(
        page(
          'Product',
          `<div id="product"><p class="price">  €12.50 </p><span class="sku">SKU-42</span><meta itemprop="brand" content="Acme"></div><script>var gtm = 'GTM-AB12CD';</script>`,
          '<meta property="og:type" content="product">',
        ),
      ),
      '/other': html(page('Other', '<p>Nothing to extract here.</p>')),
      '/tags': html(page('Tags', '<a rel="tag" href="/tags#a">alpha</a> <a rel="tag" href="/tags#b">beta</a>')),
      // linked from nowhere: only the rendered batch's list asks for it
      '/js': html(
        page('Scripted', `<p class="price" id="js-price">loading</p><script>document.getElementById('js-price').textContent = '€7.00';</script>`),
      ),
    });
    origin = `http://shop.test:${site.port}`;
    alice = await buildUser(t.services, 'alice');
  });
  after(async () => {
    await app?.close();
    await renderer?.close();
    await site?.close();
  });

  const send = (method: string, url: string, body?: unknown) =>
    t.request({
      method: method as 'GET',
      url,
      headers: { ...alice.auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });

  const byPath = (pages: ExportPage[]) =>
    Object.fromEntries(pages.map((p) => [new URL(p.url).pathname, p]));

  test('a batch with CSS, XPath and regex extractors: each page its values, stored and in the exports', async () => {
    const res = await send('POST', '/api/v1/batches', {
      url: `${origin}/`,
      mode: 'crawl',
      max_pages: 10,
      extractors: EXTRACTORS,
    });
    assert.equal(res.statusCode, 202, res.body);
    const created = (res.json() as { data: { id: number; options: { extractors: unknown } } }).data;
    batchId = created.id;
    assert.deepEqual(created.options.extractors, EXTRACTORS);
    const b = await batchEnded(t, alice.id, batchId);
    assert.equal(b.status, 'done', JSON.stringify(b));

    const json = await send('GET', `/api/v1/batches/${batchId}/export?format=json`);
    assert.equal(json.statusCode, 200, json.body);
    const pages = byPath((json.json() as { pages: ExportPage[] }).pages);
    assert.deepEqual(Object.keys(pages).sort(), ['/', '/other', '/product', '/tags']);
    assert.deepEqual(pages['/product']!.extracted, {
      price: '€12.50',
      sku: 'SKU-42',
      brand: 'Acme',
      'og type': 'product',
      gtm: 'AB12CD',
      tags: [],
    });
    assert.deepEqual(pages['/tags']!.extracted, {
      price: null,
      sku: null,
      brand: null,
      'og type': null,
      gtm: null,
      tags: ['alpha', 'beta'],
    });
    // a page without any of them: every value null
    assert.deepEqual(pages['/other']!.extracted, {
      price: null,
      sku: null,
      brand: null,
      'og type': null,
      gtm: null,
      tags: [],
    });

    const csv = await send('GET', `/api/v1/batches/${batchId}/export?format=csv`);
    assert.equal(csv.statusCode, 200);
    const header = csv.body.split('\n')[0]!;
    assert.match(header, /,error,price,sku,brand,og type,gtm,tags\r?$/);
    const rows = Object.fromEntries(parseCsv(csv.body).map((r) => [new URL(r['url']!).pathname, r]));
    assert.equal(rows['/product']!['price'], '€12.50');
    assert.equal(rows['/product']!['sku'], 'SKU-42');
    assert.equal(rows['/product']!['brand'], 'Acme');
    assert.equal(rows['/product']!['gtm'], 'AB12CD');
    assert.equal(rows['/tags']!['tags'], 'alpha | beta');
    assert.equal(rows['/other']!['price'], '');

    // the pages API: the table's pages, filtered and paged, with their values
    const listed = await send('GET', `/api/v1/batches/${batchId}/pages?search=product&per_page=10`);
    assert.equal(listed.statusCode, 200, listed.body);
    const list = listed.json() as { data: ExportPage[]; meta: { total: number } };
    assert.equal(list.data.length, 1);
    assert.equal(list.data[0]!.extracted['sku'], 'SKU-42');
    assert.deepEqual(list.data[0]!.extracted['tags'], []);
    const all = (await send('GET', `/api/v1/batches/${batchId}/pages?sort_by=url`)).json() as { data: ExportPage[] };
    assert.deepEqual(byPath(all.data)['/tags']!.extracted['tags'], ['alpha', 'beta']);

    // the stored values (the service reads them from batch_pages.extracted)
    const { pages: stored } = await t.services.batches.results(alice.id, batchId);
    const product = stored.find((p) => p.url.endsWith('/product'))!;
    assert.equal(product.extracted?.['price'], '€12.50');
  });

  test("the dashboard's pages table has a column per extractor", async () => {
    const browser = new Browser(t.app);
    await browser.login(alice.key);
    const view = await browser.get(`/dashboard/batches/${batchId}?sort_by=url`);
    assert.equal(view.statusCode, 200);
    for (const name of ['price', 'sku', 'brand', 'og type', 'gtm', 'tags'])
      assert.match(view.body, new RegExp(`<th[^>]*>${name}</th>`), `a column ${name}`);
    assert.match(view.body, /<td[^>]*>€12\.50<\/td>/);
    assert.match(view.body, /<td[^>]*>SKU-42<\/td>/);
    assert.match(view.body, /<td[^>]*>alpha \| beta<\/td>/);
  });

  test("the dashboard's form: one extractor a line; an invalid line's error names it", async () => {
    const browser = new Browser(t.app);
    await browser.login(alice.key);
    const token = await browser.csrf('/dashboard/batches');
    const bad = await browser.post('/dashboard/batches', {
      _csrf: token,
      mode: 'list',
      url: `${origin}/product`,
      urls: `${origin}/product`,
      extractors: 'price=css:.price\nsku=xpath://span[',
    });
    assert.equal(bad.statusCode, 422, bad.body);
    assert.match(bad.body, /Line 2: [^<]*not a valid XPath 1\.0 expression/);
    // the box is refilled as sent
    assert.match(bad.body, /price=css:\.price\nsku=xpath:\/\/span\[/);
    const ok = await browser.post('/dashboard/batches', {
      _csrf: token,
      mode: 'list',
      url: `${origin}/product`,
      urls: `${origin}/product`,
      extractors: 'price=css:.price\nbrand@content=xpath://meta[@itemprop="brand"]\ngtm=regex:GTM-([A-Z0-9]+)',
    });
    assert.equal(ok.statusCode, 303, ok.body);
    const id = Number(/\/dashboard\/batches\/(\d+)/.exec(String(ok.headers.location))![1]);
    assert.equal((await batchEnded(t, alice.id, id)).status, 'done');
    const { pages } = await t.services.batches.results(alice.id, id);
    assert.deepEqual(pages[0]!.extracted, { price: '€12.50', brand: 'Acme', gtm: 'AB12CD' });
  });

  test('an invalid extractor is a 422 naming its field', async () => {
    const cases: [unknown[], string, RegExp][] = [
      [[{ name: 'a', css: 'p[' }], 'extractors.0.css', /not a valid CSS selector/],
      [[{ name: 'a', css: 'p' }, { name: 'b', xpath: '//div[' }], 'extractors.1.xpath', /not a valid XPath/],
      [[{ name: 'a', regex: '(a)\\1' }], 'extractors.0.regex', /not a valid regular expression/],
      [[{ name: 'a', regex: '(?<=x)y' }], 'extractors.0.regex', /not a valid regular expression/],
      [[{ name: 'a', css: 'p', xpath: '//p' }], 'extractors.0', /exactly one of css, xpath or regex/],
      [[{ name: 'a' }], 'extractors.0', /exactly one of css, xpath or regex/],
      [[{ name: 'a', css: 'p' }, { name: 'A', css: 'h1' }], 'extractors.1.name', /used twice/],
      [[{ name: 'a,b', css: 'p' }], 'extractors.0.name', /letters, digits/],
      [[{ name: 'url', css: 'p' }], 'extractors.0.name', /a column the exports already have/],
      [[{ name: 'a', regex: 'x', attribute: 'href' }], 'extractors.0.attribute', /css and xpath only/],
    ];
    for (const [extractors, field, why] of cases) {
      const res = await send('POST', '/api/v1/batches', { url: `${origin}/`, mode: 'crawl', extractors });
      assert.equal(res.statusCode, 422, `${JSON.stringify(extractors)}: ${res.body}`);
      const errors = (res.json() as { errors: Record<string, string[]> }).errors;
      assert.ok(errors[field], `${field} in ${JSON.stringify(errors)}`);
      assert.match(errors[field]![0]!, why);
    }
    // more than 10: the schema's limit
    const many = Array.from({ length: 11 }, (_, i) => ({ name: `e${i}`, css: 'p' }));
    const res = await send('POST', '/api/v1/batches', { url: `${origin}/`, mode: 'crawl', extractors: many });
    assert.equal(res.statusCode, 422, res.body);
    assert.ok((res.json() as { errors: Record<string, string[]> }).errors['extractors']);
    // the project's settings refuse them the same way
    const put = await send('PATCH', '/api/v1/projects/shop.test', { extractors: [{ name: 'x', xpath: '//[' }] });
    assert.equal(put.statusCode, 422, put.body);
    assert.ok((put.json() as { errors: Record<string, string[]> }).errors['extractors.0.xpath']);
  });

  test("the project's settings form: the extractor box saved, shown again, its errors by line", async () => {
    const browser = new Browser(t.app);
    await browser.login(alice.key);
    const page = '/dashboard/projects/shop.test';
    const token = await browser.csrf(page);
    const form = (extractors: string) => ({
      _csrf: token,
      start_url: `${origin}/`,
      mode: 'crawl',
      urls: '',
      max_pages: '10',
      max_depth: '10',
      include: '',
      exclude: '',
      extractors,
      default_privacy: '0',
      schedule: 'none',
      cron: '',
      timezone: 'UTC',
      headers: '',
      cookies: '',
      basic_auth_username: '',
      basic_auth_password: '',
      basic_auth_had: '',
    });
    const bad = await browser.post(`${page}/settings`, form('price=css:.price\nnothing'));
    assert.equal(bad.statusCode, 422, bad.body);
    assert.match(bad.body, /Line 2: [^<]*exactly one of css, xpath or regex/);
    const ok = await browser.post(`${page}/settings`, form('price=css:.price\nog@content=css:meta[property="og:type"]'));
    assert.equal(ok.statusCode, 303, ok.body);
    const detail = await t.services.projects.get(alice.id, 'shop.test');
    assert.deepEqual(detail.settings.extractors, [
      { name: 'price', css: '.price' },
      { name: 'og', css: 'meta[property="og:type"]', attribute: 'content' },
    ]);
    const shown = await browser.get(page);
    assert.match(shown.body, /price=css:\.price\nog@content=css:meta\[property=(&quot;|&#34;|")og:type(&quot;|&#34;|")\]/);
  });

  test("a project's extractors are used by its crawls", async () => {
    const put = await send('PUT', '/api/v1/projects/shop.test', {
      start_url: `${origin}/`,
      max_pages: 10,
      extractors: [{ name: 'price', css: 'p.price' }, { name: 'gtm', regex: 'GTM-[A-Z0-9]+' }],
    });
    assert.ok(put.statusCode === 200 || put.statusCode === 201, put.body);
    const settings = await send('GET', '/api/v1/projects/shop.test');
    assert.deepEqual((settings.json() as { data: { settings: { extractors: unknown } } }).data.settings.extractors, [
      { name: 'price', css: 'p.price' },
      { name: 'gtm', regex: 'GTM-[A-Z0-9]+' },
    ]);
    const crawl = await send('POST', '/api/v1/projects/shop.test/crawls');
    assert.equal(crawl.statusCode, 202, crawl.body);
    const id = (crawl.json() as { data: { id: number } }).data.id;
    assert.equal((await batchEnded(t, alice.id, id)).status, 'done');
    const json = await send('GET', `/api/v1/batches/${id}/export?format=json`);
    const pages = byPath((json.json() as { pages: ExportPage[] }).pages);
    // no capture group: the whole match
    assert.deepEqual(pages['/product']!.extracted, { price: '€12.50', gtm: 'GTM-AB12CD' });
    assert.deepEqual(pages['/']!.extracted, { price: null, gtm: null });
  });

  test('a rendered batch extracts from the rendered HTML its audit judged', { skip: chromiumSkip }, async () => {
    const res = await send('POST', '/api/v1/batches', {
      url: `${origin}/js`,
      mode: 'list',
      urls: [`${origin}/js`],
      render: 1,
      extractors: [
        { name: 'price', css: '.price' },
        { name: 'raw', regex: 'id="js-price">([^<]+)<' },
      ],
    });
    assert.equal(res.statusCode, 202, res.body);
    const id = (res.json() as { data: { id: number } }).data.id;
    assert.equal((await batchEnded(t, alice.id, id, 120_000)).status, 'done');
    const list = (await send('GET', `/api/v1/batches/${id}/pages`)).json() as { data: ExportPage[] };
    assert.equal(list.data.length, 1);
    // the script's text, not the raw "loading"; the regex reads the same (rendered) HTML
    assert.deepEqual(list.data[0]!.extracted, { price: '€7.00', raw: '€7.00' });
  });
});
