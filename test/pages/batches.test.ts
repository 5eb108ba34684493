// The dashboard's batches (docs/sites.md): start a batch from the form against the generated
// fixture site on 127.0.0.1 (worked by the real job engine), the batch page while it runs
// (progress bar, counts, no-script refresh, its event stream) and once done (summary, SVG
// charts, findings, the pages table with filters, sort and pages), the downloads on the session,
// the form's errors beside their fields, cancel and delete, other users' 404s and CSRF — on
// SQLite and PostgreSQL.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { describeEachDialect, type TestApp } from '../helpers/app.js';
import { Browser } from '../helpers/browser.js';
import { parseCsv } from '../helpers/csv.js';
import { buildUser, type TestUser } from '../helpers/factories.js';
import { waitFor } from '../helpers/queues.js';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.js';
import { startBatchApp, type BatchApp } from '../helpers/batch-app.js';

const TERMINAL = ['done', 'cancelled', 'failed'];

describeEachDialect('batch pages', (dialect) => {
  let app: BatchApp;
  let t: TestApp;
  let site: FixtureSite;
  let slow: FixtureSite;
  let alice: TestUser;
  let bob: TestUser;
  let b: Browser;
  let token: string;

  before(async () => {
    app = await startBatchApp(dialect, { config: { batchMaxPages: 500 } });
    t = app.t;
    site = await startFixtureSite({ pages: 20, crawlDelay: null });
    slow = await startFixtureSite({ pages: 40, crawlDelay: null, latencyMs: 400, plain: true });
    alice = await buildUser(t.services, 'alice');
    bob = await buildUser(t.services, 'bob');
    b = new Browser(t.app);
    await b.login(alice.key);
    token = await b.csrf('/dashboard/batches');
  });
  after(async () => {
    await app?.close();
    await site?.close();
    await slow?.close();
  });

  const start = async (fields: Record<string, string>) => {
    const res = await b.post('/dashboard/batches', { _csrf: token, ...fields });
    assert.equal(res.statusCode, 303, res.body);
    const m = /^\/dashboard\/batches\/(\d+)$/.exec(String(res.headers.location));
    assert.ok(m, String(res.headers.location));
    return Number(m[1]);
  };
  const finished = async (id: number) =>
    (await waitFor(
      async () => {
        await new Promise((r) => setTimeout(r, 150));
        const batch = await t.services.batches.get(alice.id, id);
        return TERMINAL.includes(batch.status) ? batch : null;
      },
      `batch ${id} to end`,
      60_000,
    ))!;

  test('anonymous visitors are sent to sign in; the navigation links the batches', async () => {
    const res = await t.app.inject({ url: '/dashboard/batches' });
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, `/login?next=${encodeURIComponent('/dashboard/batches')}`);
    const page = await b.get('/dashboard/batches');
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /<a href="\/dashboard\/batches">Batches<\/a>/);
    assert.match(page.body, /No batches yet/);
    assert.match(page.body, /<select id="batch-mode" name="mode">/);
  });

  test("the form's errors are in its words, beside the field, and the form is refilled", async () => {
    let res = await b.post('/dashboard/batches', { _csrf: token, mode: 'crawl', url: 'ftp://x.test/' });
    assert.equal(res.statusCode, 422);
    assert.match(
      res.body,
      /id="batch-url-error">Enter a full web address that starts with http:\/\/ or https:\/\/\./,
    );
    assert.equal(res.body.split('Enter a full web address').length, 2, 'said once, next to the field');
    assert.ok(!res.body.includes('class="alert alert--error"'), 'no alert for an error that has a field');
    assert.match(res.body, /id="batch-url"[^>]*value="ftp:\/\/x\.test\/"[^>]*aria-invalid="true"/);

    res = await b.post('/dashboard/batches', { _csrf: token, mode: 'list', url: '', urls: '' });
    assert.equal(res.statusCode, 422);
    assert.match(res.body, /id="batch-url-error">Paste at least one address in the list, or give the site\./);

    res = await b.post('/dashboard/batches', {
      _csrf: token,
      mode: 'list',
      urls: `${site.origin}/p/1\nnot a url`,
    });
    assert.equal(res.statusCode, 422);
    assert.match(
      res.body,
      /id="batch-urls-error">Line 2: each line must be one address that starts with http:\/\/ or https:\/\/\./,
    );
    assert.match(
      res.body,
      /<textarea id="batch-urls"[^>]*>http:\/\/site\.test:\d+\/p\/1\nnot a url<\/textarea>/,
    );

    res = await b.post('/dashboard/batches', {
      _csrf: token,
      mode: 'crawl',
      url: `${site.origin}/`,
      max_pages: '501',
    });
    assert.equal(res.statusCode, 422);
    assert.match(res.body, /id="batch-max-pages-error">A batch can have at most 500 pages\./);
    res = await b.post('/dashboard/batches', {
      _csrf: token,
      mode: 'crawl',
      url: `${site.origin}/`,
      max_pages: 'lots',
    });
    assert.equal(res.statusCode, 422);
    assert.match(
      res.body,
      /id="batch-max-pages-error">Enter a whole number of pages, 1 or more \(empty: 100\)\./,
    );
    res = await b.post('/dashboard/batches', {
      _csrf: token,
      mode: 'crawl',
      url: `${site.origin}/`,
      max_depth: '101',
      exclude: '/tag/*',
    });
    assert.equal(res.statusCode, 422);
    assert.match(
      res.body,
      /id="batch-max-depth-error">Enter how many links to follow from the start: 0 to 100/,
    );
    assert.match(res.body, /<details class="field field--wide batch-more" open>/, 'the options stay open');
    assert.match(res.body, /<textarea id="batch-exclude"[^>]*>\/tag\/\*<\/textarea>/);
    // the links to other sites: a cap out of bounds is said beside its field, the box stays ticked
    res = await b.post('/dashboard/batches', {
      _csrf: token,
      mode: 'crawl',
      url: `${site.origin}/`,
      check_external: '1',
      max_external_checks: '0',
    });
    assert.equal(res.statusCode, 422);
    assert.match(res.body, /id="batch-max-external-checks-error">[^<]*max_external_checks/);
    assert.match(
      res.body,
      /<input id="batch-check-external" name="check_external" type="checkbox" value="1" checked/,
    );
    assert.match(res.body, /<details class="field field--wide batch-more" open>/);
    // a finding's threshold out of bounds: its range beside its field
    res = await b.post('/dashboard/batches', {
      _csrf: token,
      mode: 'crawl',
      url: `${site.origin}/`,
      near_duplicate_threshold: '100',
    });
    assert.equal(res.statusCode, 422);
    assert.match(res.body, /id="batch-near-duplicate-threshold-error">[^<]*near_duplicate_threshold[^<]*99/);
    assert.match(res.body, /<details class="field field--wide batch-more" open>/);
    assert.equal((await t.services.batches.list(alice.id, { page: 1, perPage: 10 })).total, 0);

    // the more options reach the batch (a port nothing listens on: no page, no report)
    const id = await start({
      mode: 'crawl',
      url: `${site.origin.replace(/:\d+$/, ':1')}/`,
      max_depth: '2',
      include: '/docs/*\r\n/blog/*',
      exclude: '/tag/*',
      max_pages: '',
      check_external: '1',
      max_external_checks: '20',
      thin_content_words: '50',
      near_duplicate_threshold: '80',
      deep_page_depth: '2',
    });
    const made = await t.services.batches.get(alice.id, id);
    assert.deepEqual(
      {
        maxDepth: made.options.maxDepth,
        include: made.options.include,
        exclude: made.options.exclude,
        maxPages: made.options.maxPages,
        checkExternal: made.options.checkExternal,
        maxExternalChecks: made.options.maxExternalChecks,
        thresholds: [made.options.thinContentWords, made.options.nearDuplicateThreshold, made.options.deepPageDepth],
      },
      {
        maxDepth: 2,
        include: ['/docs/*', '/blog/*'],
        exclude: ['/tag/*'],
        maxPages: 100,
        checkExternal: true,
        maxExternalChecks: 20,
        thresholds: [50, 80, 2],
      },
    );
    await finished(id);
    await t.services.batches.delete(alice.id, id, { reports: true });
  });

  test('a crawl started from the form: progress while it runs, then the summary, charts, findings and pages', async () => {
    const id = await start({ mode: 'crawl', url: `${site.origin}/`, max_pages: '60', privacy: '1' });

    // while it runs: the bar, the counts, the stream for the script, a refresh without it
    const running = await b.get(`/dashboard/batches/${id}`);
    assert.equal(running.statusCode, 200);
    // (the crawl takes seconds: the page was answered while it ran)
    assert.match(running.body, /batch-status--(queued|running)/);
    assert.match(running.body, /<progress class="batch-progress__bar" max="\d+" value="\d+"/);
    assert.match(running.body, new RegExp(`data-batch-events="/dashboard/batches/${id}/events"`));
    assert.match(running.body, /<noscript><meta http-equiv="refresh" content="5"><\/noscript>/);
    assert.match(running.body, /<a href="\/dashboard\/batches\/\d+">Refresh<\/a>/);
    assert.match(running.body, /Cancel batch/);
    assert.match(running.body, /data-count="audited">\d+</);

    // the page's own event stream (the session, not a key) delivers progress until the end
    const events = await b.get(`/dashboard/batches/${id}/events`);
    assert.equal(events.statusCode, 200);
    assert.match(String(events.headers['content-type']), /^text\/event-stream/);
    assert.equal(events.headers['content-security-policy']?.includes("default-src 'self'"), true);
    const got = [...events.body.matchAll(/^event: (progress|end)\ndata: (.*)$/gm)].map((m) => ({
      event: m[1],
      data: JSON.parse(m[2]!) as { status: string; audited: number; discovered: number },
    }));
    assert.ok(got.length >= 2, `events: ${events.body.slice(0, 300)}`);
    assert.equal(got.at(-1)!.event, 'end');
    assert.equal(got.at(-1)!.data.status, 'done');
    const audited = got.map((e) => e.data.audited);
    assert.deepEqual(
      audited,
      [...audited].sort((x, y) => x - y),
      'audited never goes down',
    );

    const batch = await finished(id);
    assert.equal(batch.status, 'done');
    const page = await b.get(`/dashboard/batches/${id}`);
    assert.equal(page.statusCode, 200);
    assert.ok(!page.body.includes('http-equiv="refresh"'), 'no refresh once it has ended');
    assert.ok(!page.body.includes('data-batch-events'), 'no stream once it has ended');
    assert.match(page.body, /<h2 id="summary-title">Summary<\/h2>/);
    assert.match(page.body, /<svg class="chart chart--histogram"[^>]*role="img"/);
    assert.match(page.body, /<svg class="chart chart--issues"[^>]*role="img"/);
    assert.ok(!/<svg[^>]* style=/.test(page.body), 'no inline style in the charts');
    assert.match(page.body, /<desc id="histogram-desc">Audited pages by score: /);
    assert.match(page.body, /id="finding-duplicate_titles"/);
    assert.match(page.body, /Pages that share a title<\/span> <span class="finding__count">2 pages/);
    assert.match(page.body, /id="finding-broken_links"[\s\S]*?\/p\/7/);
    assert.match(page.body, /Download CSV/);
    assert.ok(!page.body.includes('Cancel batch'), 'nothing to cancel once done');

    // the pages table: filters, sort, pages
    const reports = batch.progress.audited;
    assert.ok(reports > 25, `audited ${reports}`);
    assert.match(page.body, new RegExp(`1–25 of ${batch.progress.discovered}<`));
    const failedOnly = await b.get(`/dashboard/batches/${id}?state=failed`);
    const failedRows = [...failedOnly.body.matchAll(/<tr class="batch-page batch-page--(\w+)">/g)].map(
      (m) => m[1],
    );
    assert.ok(failedRows.length >= 2);
    assert.ok(
      failedRows.every((s) => s === 'failed'),
      failedRows.join(),
    );
    assert.match(failedOnly.body, /\/missing/);
    const byUrl = await b.get(`/dashboard/batches/${id}?state=done&sort_by=url&sort=desc&per_page=10`);
    const urls = [...byUrl.body.matchAll(/<a href="\/reports\/\d+" class="break">([^<]+)<\/a>/g)].map(
      (m) => m[1]!,
    );
    assert.equal(urls.length, 10);
    assert.deepEqual(urls, [...urls].sort().reverse());
    assert.match(byUrl.body, /Page 1 of \d+/);
    assert.match(
      byUrl.body,
      /href="\/dashboard\/batches\/\d+\?state=done&amp;sort_by=url&amp;sort=desc&amp;per_page=10&amp;page=2#pages-title" rel="next"/,
    );
    const second = await b.get(
      `/dashboard/batches/${id}?state=done&sort_by=url&sort=desc&per_page=10&page=2`,
    );
    const urls2 = [...second.body.matchAll(/<a href="\/reports\/\d+" class="break">([^<]+)<\/a>/g)].map(
      (m) => m[1]!,
    );
    assert.ok(urls2[0]! < urls.at(-1)!, 'page 2 continues the order');
    const byScore = await b.get(`/dashboard/batches/${id}?state=done&sort_by=score&sort=asc&per_page=100`);
    const scores = [
      ...byScore.body.matchAll(/<td class="num">(\d+)<\/td>\s*<td class="num">\d+<\/td>\s*<\/tr>/g),
    ].map((m) => Number(m[1]));
    assert.equal(scores.length, reports);
    assert.deepEqual(
      scores,
      [...scores].sort((x, y) => x - y),
    );
    const forgiving = await b.get(`/dashboard/batches/${id}?per_page=1000&result=`);
    assert.equal(forgiving.statusCode, 200);
    assert.match(forgiving.body, /Per page cannot be “1000”, so 25 per page is shown\./);
    const none = await b.get(`/dashboard/batches/${id}?search=nothing-like-this`);
    assert.match(none.body, /No pages match these filters/);

    // the downloads, on the session
    const csv = await b.get(`/dashboard/batches/${id}/export?format=csv`);
    assert.equal(csv.statusCode, 200);
    assert.match(String(csv.headers['content-type']), /^text\/csv/);
    assert.match(
      String(csv.headers['content-disposition']),
      new RegExp(`attachment; filename="batch-${id}\\.csv"`),
    );
    const rows = parseCsv(csv.body);
    assert.equal(rows.length, batch.progress.discovered);
    assert.equal(rows.filter((r) => r.state === 'done').length, reports);
    const json = await b.get(`/dashboard/batches/${id}/export?format=json`);
    assert.equal(json.statusCode, 200);
    const body = json.json() as {
      batch: { id: number; status: string };
      pages: unknown[];
      findings: unknown[];
    };
    assert.equal(body.batch.id, id);
    assert.equal(body.batch.status, 'done');
    assert.equal(body.pages.length, batch.progress.discovered);
    const anonymous = await t.app.inject({ url: `/dashboard/batches/${id}/export?format=csv` });
    assert.equal(anonymous.statusCode, 303, 'the downloads need a session');

    // the batches list shows it
    const list = await b.get('/dashboard/batches');
    assert.match(list.body, new RegExp(`<a class="report-row__url" href="/dashboard/batches/${id}">`));
    assert.match(list.body, /<span class="batch-status batch-status--done">Done<\/span>/);

    // other users: the same 404 as a missing batch, for every route
    const other = new Browser(t.app);
    await other.login(bob.key);
    const bobToken = await other.csrf('/dashboard/batches');
    const missing = await other.get('/dashboard/batches/999999');
    assert.equal(missing.statusCode, 404);
    for (const path of ['', '/events', '/export?format=csv', '/export?format=json']) {
      const res = await other.get(`/dashboard/batches/${id}${path}`);
      assert.equal(res.statusCode, 404, path);
      assert.match(res.body, /Page not found/, path);
      assert.ok(!res.body.includes(site.origin), `nothing of the batch shows (${path})`);
    }
    for (const action of ['cancel', 'delete']) {
      const res = await other.post(`/dashboard/batches/${id}/${action}`, { _csrf: bobToken });
      assert.equal(res.statusCode, 404, action);
    }
    assert.equal((await b.get('/dashboard/batches/abc')).statusCode, 404);
    assert.equal((await t.services.batches.get(alice.id, id)).status, 'done', 'untouched');

    // CSRF: without a token, or with another session's, nothing happens
    for (const fields of [{} as Record<string, string>, { _csrf: bobToken }]) {
      const res = await b.post(`/dashboard/batches/${id}/delete`, fields);
      assert.equal(res.statusCode, 403);
    }
    const noToken = await b.post('/dashboard/batches', { mode: 'crawl', url: `${site.origin}/` });
    assert.equal(noToken.statusCode, 403);

    // delete, with its reports
    const del = await b.post(`/dashboard/batches/${id}/delete`, { _csrf: token, reports: '1' });
    assert.equal(del.statusCode, 303);
    assert.equal(del.headers.location, '/dashboard/batches?done=batch_deleted');
    assert.match((await b.get('/dashboard/batches?done=batch_deleted')).body, /The batch was deleted\./);
    assert.equal((await b.get(`/dashboard/batches/${id}`)).statusCode, 404);
    const left = await t.request({ method: 'GET', url: '/api/v1/reports', headers: alice.auth });
    assert.equal((left.json() as { meta: { total: number } }).meta.total, 0, 'its reports went with it');
  });

  test('a list pasted in the form; cancel stops a running batch', async () => {
    const urls = Array.from({ length: 30 }, (_, i) => `${slow.origin}/p/${i + 1}`);
    const id = await start({ mode: 'list', urls: urls.join('\r\n') });
    const batch = await t.services.batches.get(alice.id, id);
    assert.equal(batch.url, urls[0]);
    assert.equal(batch.options.urls?.length, 30);
    await waitFor(
      async () => (await t.services.batches.get(alice.id, id)).status === 'running',
      'the batch to run',
    );
    const res = await b.post(`/dashboard/batches/${id}/cancel`, { _csrf: token });
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, `/dashboard/batches/${id}?done=batch_cancelled`);
    const page = await b.get(`/dashboard/batches/${id}?done=batch_cancelled`);
    assert.match(page.body, /The batch was cancelled\./);
    assert.match(page.body, /batch-status--cancelled">Cancelled</);
    assert.ok((await t.services.batches.get(alice.id, id)).progress.audited < 30);
    // deleting it keeps its reports
    const before = (
      await t.request({ method: 'GET', url: '/api/v1/reports', headers: alice.auth })
    ).json() as {
      meta: { total: number };
    };
    await waitFor(async () => {
      const r = await b.post(`/dashboard/batches/${id}/delete`, { _csrf: token });
      return r.statusCode === 303;
    }, 'delete');
    const after = (
      await t.request({ method: 'GET', url: '/api/v1/reports', headers: alice.auth })
    ).json() as {
      meta: { total: number };
    };
    assert.ok(after.meta.total >= before.meta.total, 'its reports stay');
  });
});
