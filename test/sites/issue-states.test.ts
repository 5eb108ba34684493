// Issue states and ignore rules (docs/sites.md), on SQLite and PostgreSQL with the real job
// engine and a fixture site on 127.0.0.1 that changes between crawls: a check ignored on
// /blog/* is not judged there (its reason shown) and judged elsewhere, and the page's score
// leaves it out (crawl pages and single audits alike); an expired rule no longer applies; an
// ignored finding's page is listed apart and not counted; the rules' change log names who (the
// API key, the dashboard) and when; bad rules are 422 naming the field; and three crawls give
// new → persisting (since the first crawl) → fixed, in GET …/issues and the batch's findings.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { scoreResults } from '../../src/analyzer/scoring.js';
import type { CheckResult } from '../../src/analyzer/types.js';
import { describeEachDialect, type TestApp } from '../helpers/app.js';
import { batchEnded, startBatchApp, type BatchApp } from '../helpers/batch-app.js';
import { buildUser, type TestUser } from '../helpers/factories.js';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.js';
import { checkAgainstOpenApi } from '../helpers/openapi-check.js';
import { waitFor } from '../helpers/queues.js';

const page = (title: string, body: string, description?: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${
    description ? `<meta name="description" content="${description}">` : ''
  }<meta name="viewport" content="width=device-width, initial-scale=1"></head><body><h1>${title}</h1><p>Some words about ${title}.</p>${body}</body></html>`;

/** /about and /x share a title (until fix()); no page has a description but the home page. */
async function changingSite(): Promise<FixtureServer & { fix(): void }> {
  const s = await startFixtureServer({
    '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' },
  });
  const links = ['/blog/a', '/blog/b', '/about', '/x'].map((p) => `<a href="${p}">${p}</a>`).join(' ');
  s.route('/', { body: page('Home', links, 'The home page of the site.') });
  s.route('/blog/a', { body: page('Blog A', '<a href="/">Home</a>') });
  s.route('/blog/b', { body: page('Blog B', '<a href="/">Home</a>') });
  s.route('/about', { body: page('Same title', '<a href="/">Home</a>') });
  s.route('/x', { body: page('Same title', '<a href="/">Home</a>') });
  return Object.assign(s, {
    fix() {
      s.route('/x', { body: page('Another title', '<a href="/">Home</a>') });
      s.route('/about', { body: page('Same title', '<a href="/">Home</a>', 'All about us, at last.') });
    },
  });
}

interface Finding {
  id: string;
  count: number;
  pages: { url: string; state?: string; since_batch_id?: number }[];
  ignored?: { url: string; rule_id: string; reason: string }[];
  fixed?: { url: string }[];
}
interface Issue {
  kind: string;
  id: string;
  url: string;
  state: string;
  since_batch_id: number;
  batch_id: number;
  reason: string | null;
}

describeEachDialect('issue states and ignore rules', (dialect) => {
  let app: BatchApp;
  let t: TestApp;
  let user: TestUser;
  let site: Awaited<ReturnType<typeof changingSite>>;
  let project: string;

  before(async () => {
    app = await startBatchApp(dialect, { pollMs: 50 });
    t = app.t;
    user = await buildUser(t.services);
    site = await changingSite();
    project = new URL(site.origin).hostname;
  });
  after(async () => {
    try {
      if (t) await checkAgainstOpenApi({ ...t, alice: user, bob: user });
    } finally {
      await app?.close();
      await site?.close();
    }
  });

  const send = (method: string, url: string, body?: unknown) =>
    t.request({
      method: method as 'GET',
      url,
      headers: { ...user.auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
  const crawl = async () => {
    const res = await send('POST', `/api/v1/projects/${project}/crawls`);
    assert.equal(res.statusCode, 202, res.body);
    const id = (res.json() as { data: { id: number } }).data.id;
    const done = await batchEnded(t, user.id, id);
    assert.equal(done.status, 'done', done.error ?? '');
    return id;
  };
  const findings = async (id: number) => {
    const res = await send('GET', `/api/v1/batches/${id}/export?format=json`);
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as {
      findings: Finding[];
      pages: { url: string; report_id: number | null; score: number | null }[];
    };
  };
  const issues = async (query: string) => {
    const res = await send('GET', `/api/v1/projects/${project}/issues?per_page=100&${query}`);
    assert.equal(res.statusCode, 200, res.body);
    return (res.json() as { data: Issue[] }).data;
  };
  const u = (path: string) => `${site.origin}${path}`;
  const ids: number[] = [];

  test('rules: 422 naming the field; added with a rule_id; the change log names who and when', async () => {
    const put = await send('PUT', `/api/v1/projects/${project}`, {
      start_url: `${site.origin}/`,
      max_pages: 20,
    });
    assert.equal(put.statusCode, 201, put.body);
    const path = `/api/v1/projects/${project}/ignore-rules`;
    for (const [body, field, message] of [
      [{ id: 'no_such_check', reason: 'x' }, 'id', /check id or a site finding id/],
      [
        { id: 'meta_description', url_pattern: 'blog/*', reason: 'x' },
        'url_pattern',
        /path starting with \//,
      ],
      [{ id: 'meta_description', url_pattern: '/a b', reason: 'x' }, 'url_pattern', /no spaces/],
      [{ id: 'meta_description', reason: 'x', expires_at: 'tomorrow' }, 'expires_at', /invalid|date-time/],
      [{ id: 'meta_description', reason: 'x', expires_at: '2020-01-01T00:00:00Z' }, 'expires_at', /future/],
      [{ id: 'meta_description', reason: 'x', colour: 'red' }, 'colour', /./],
    ] as const) {
      const res = await send('POST', path, body);
      assert.equal(res.statusCode, 422, `${JSON.stringify(body)}: ${res.body}`);
      const errors = (res.json() as { errors: Record<string, string[]> }).errors;
      assert.ok(errors[field], `${field} in ${res.body}`);
      assert.match(errors[field]!.join(' '), message);
    }
    const added = await send('POST', path, {
      id: 'meta_description',
      url_pattern: '/blog/*',
      reason: 'the blog has no descriptions',
    });
    assert.equal(added.statusCode, 201, added.body);
    const rule = (added.json() as { data: { rule_id: string; url_pattern: string; expires_at: null } }).data;
    assert.match(rule.rule_id, /^rule_[0-9a-f]{12}$/);
    assert.equal(rule.url_pattern, '/blog/*');
    // the same rule again is refused, naming it
    const again = await send('POST', path, {
      id: 'meta_description',
      url_pattern: '/blog/*',
      reason: 'the blog has no descriptions',
    });
    assert.equal(again.statusCode, 422);
    assert.match(again.body, new RegExp(rule.rule_id));
    // a finding ignored on one page
    const finding = await send('POST', path, {
      id: 'duplicate_titles',
      url_pattern: '/x',
      reason: '/x is a test page',
    });
    assert.equal(finding.statusCode, 201, finding.body);
    // removed, then the log: two adds and a remove by the API key, and a replace in the dashboard
    const temp = await send('POST', path, { id: 'title', reason: 'for a moment' });
    const tempId = (temp.json() as { data: { rule_id: string } }).data.rule_id;
    const del = await send('DELETE', `${path}/${tempId}`);
    assert.equal(del.statusCode, 204, del.body);
    assert.equal((await send('DELETE', `${path}/${tempId}`)).statusCode, 404);
    // an expired rule (PATCH keeps what is sent): /about's description would be ignored, were it not expired
    const current = (await send('GET', path)).json() as { data: { rules: Record<string, unknown>[] } };
    await t.services.projects.patch(user.id, project, {
      ignore: [
        ...(current.data.rules as never[]),
        {
          id: 'meta_description',
          url_pattern: '/about',
          reason: 'expired',
          expires_at: '2020-01-01T00:00:00Z',
        },
      ],
    });
    const listed = await send('GET', path);
    assert.equal(listed.statusCode, 200, listed.body);
    const data = (
      listed.json() as {
        data: {
          rules: { rule_id: string }[];
          changes: {
            action: string;
            rule_id: string | null;
            by: { via: string; key_prefix: string | null };
            at: string;
          }[];
        };
      }
    ).data;
    assert.equal(data.rules.length, 3);
    assert.deepEqual(
      data.changes.map((c) => [c.action, c.by.via]),
      [
        ['replace', 'dashboard'],
        ['remove', 'api'],
        ['add', 'api'],
        ['add', 'api'],
        ['add', 'api'],
      ],
    );
    assert.equal(data.changes[1]!.rule_id, tempId);
    assert.ok(user.key.startsWith(data.changes[1]!.by.key_prefix!), data.changes[1]!.by.key_prefix ?? 'null');
    for (const c of data.changes) assert.ok(Math.abs(Date.parse(c.at) - Date.now()) < 60_000, c.at);
  });

  test('crawl 1: the check ignored on /blog/* is not judged there, judged elsewhere; the score leaves it out; the finding page listed apart; every issue new', async () => {
    const id = await crawl();
    ids.push(id);
    const exp = await findings(id);
    const reportOf = async (path: string) => {
      const p = exp.pages.find((x) => x.url === u(path))!;
      assert.ok(p.report_id, path);
      return t.services.reports.get(user.id, p.report_id);
    };
    const blog = await reportOf('/blog/a');
    const md = blog.results['meta_description']!;
    assert.equal(md.passed, null);
    assert.equal(md.inconclusive_reason, 'ignored');
    assert.equal(md.message, 'ignored by rule: the blog has no descriptions');
    // judged, the check would fail and the score be lower
    const judged = scoreResults(
      Object.values(blog.results).map((r): CheckResult =>
        r.id === 'meta_description' ? { ...r, passed: false } : r,
      ),
    );
    assert.ok(blog.score > judged.score, `${blog.score} > ${judged.score}`);
    assert.equal(blog.score, scoreResults(Object.values(blog.results)).score);
    assert.equal(exp.pages.find((x) => x.url === u('/blog/a'))!.score, blog.score);
    // elsewhere judged (the expired rule for /about no longer applies)
    const about = await reportOf('/about');
    assert.equal(about.results['meta_description']!.passed, false);
    // the dashboard's report page shows the reason
    const html = await t.request({ method: 'GET', url: `/reports/${blog.id}` });
    assert.match(html.body, /ignored by rule: the blog has no descriptions/);

    const dup = exp.findings.find((f) => f.id === 'duplicate_titles')!;
    assert.deepEqual(
      dup.pages.map((p) => p.url),
      [u('/about')],
    );
    assert.equal(dup.count, 1);
    assert.deepEqual(
      dup.ignored?.map((p) => [p.url, p.reason]),
      [[u('/x'), '/x is a test page']],
    );
    assert.deepEqual(
      dup.pages.map((p) => [p.state, p.since_batch_id]),
      [['new', id]],
    );
    const batch = await t.services.batches.get(user.id, id);
    assert.equal(batch.summary!.findings.find((f) => f.id === 'duplicate_titles')!.count, 1);

    const all = await issues('');
    assert.ok(all.length > 0);
    for (const i of all) assert.ok(i.state === 'new' || i.state === 'ignored', `${i.id} ${i.url} ${i.state}`);
    const ignored = await issues('state=ignored');
    assert.deepEqual(
      ignored.map((i) => [i.kind, i.id, i.url]).sort(),
      [
        ['check', 'meta_description', u('/blog/a')],
        ['check', 'meta_description', u('/blog/b')],
        ['finding', 'duplicate_titles', u('/x')],
      ].sort(),
    );
    assert.ok(
      all.some(
        (i) =>
          i.kind === 'check' && i.id === 'meta_description' && i.url === u('/about') && i.state === 'new',
      ),
    );
  });

  test('a single audit applies the rules too', async () => {
    const r = await t.services.reports.create(user.id, { url: u('/blog/b'), privacy: 0, password: null });
    assert.equal(r.results['meta_description']!.inconclusive_reason, 'ignored');
    const about = await t.services.reports.create(user.id, { url: u('/about'), privacy: 0, password: null });
    assert.equal(about.results['meta_description']!.passed, false);
  });

  test('crawl 2: persisting, since the first crawl; crawl 3 (the site fixed): fixed', async () => {
    const second = await crawl();
    ids.push(second);
    const persisting = await issues('state=persisting');
    const about = persisting.find(
      (i) => i.kind === 'check' && i.id === 'meta_description' && i.url === u('/about'),
    );
    assert.ok(about, JSON.stringify(persisting));
    assert.equal(about.since_batch_id, ids[0]);
    assert.equal(about.batch_id, second);
    const dupIssue = (await issues('state=persisting&kind=finding')).find((i) => i.id === 'duplicate_titles');
    assert.equal(dupIssue?.url, u('/about'));
    const dup = (await findings(second)).findings.find((f) => f.id === 'duplicate_titles')!;
    assert.deepEqual(
      dup.pages.map((p) => [p.url, p.state, p.since_batch_id]),
      [[u('/about'), 'persisting', ids[0]]],
    );
    assert.equal((await issues('state=new')).length, 0);

    site.fix();
    const third = await crawl();
    const fixed = await issues('state=fixed');
    const keys = fixed.map((i) => `${i.kind} ${i.id} ${i.url}`);
    assert.ok(keys.includes(`check meta_description ${u('/about')}`), keys.join('; '));
    assert.ok(keys.includes(`finding duplicate_titles ${u('/about')}`), keys.join('; '));
    for (const i of fixed) assert.equal(i.batch_id, third);
    const dup3 = (await findings(third)).findings.find((f) => f.id === 'duplicate_titles')!;
    assert.equal(dup3.count, 0);
    // /x's duplicate title was ignored in crawl 2, and is gone: fixed too
    assert.deepEqual(
      dup3.fixed?.map((p) => p.url),
      [u('/about'), u('/x')],
    );
    // still there: persisting since the first crawl
    const still = (await issues('state=persisting')).find(
      (i) => i.id === 'meta_description' && i.url === u('/x'),
    );
    assert.equal(still?.since_batch_id, ids[0]);
  });

  test('a cancelled crawl leaves the states alone (it saw only part of the site)', async () => {
    const before = await issues('');
    assert.ok(before.length > 0);
    // the home page is held until the crawl is cancelled: the crawl has seen nothing of the site
    let release = () => {};
    const held = new Promise<void>((ok) => (release = ok));
    const asked = site.requests.filter((p) => p === '/').length;
    site.route('/', async (_req, res) => {
      await held;
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(page('Home', '<a href="/about">/about</a>', 'The home page of the site.'));
    });
    const res = await send('POST', `/api/v1/projects/${project}/crawls`);
    assert.equal(res.statusCode, 202, res.body);
    const id = (res.json() as { data: { id: number } }).data.id;
    try {
      await waitFor(
        () => site.requests.filter((p) => p === '/').length > asked || null,
        'the home page asked for',
      );
      const cancel = await send('POST', `/api/v1/batches/${id}/cancel`);
      assert.ok(cancel.statusCode < 300, cancel.body);
    } finally {
      release();
    }
    assert.equal((await batchEnded(t, user.id, id)).status, 'cancelled');
    const after = await issues('');
    const key = (i: Issue) => `${i.kind} ${i.id} ${i.url} ${i.state} ${i.since_batch_id} ${i.batch_id}`;
    assert.deepEqual(after.map(key).sort(), before.map(key).sort());
  });
});
