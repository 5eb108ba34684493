// The web pages through Fastify inject, over the real app, services, SQLite file and analyzer:
// privacy rules, password throttle, sessions, CSRF, escaping, security headers, the dashboard.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Redis } from 'ioredis';
import { buildApp } from '../../src/app.js';
import { escapeHtml, html, raw } from '../../src/views/html.js';
import { MemoryAttemptStore } from '../../src/pages/throttle.js';
import type { StoredReport } from '../../src/services/reports/types.js';
import { clearRedisPrefix, randomId, REDIS_URL, redisUnavailable, skipUnlessRequired } from '../helpers/services.js';
import { describeEachDialect } from '../helpers/app.js';
import {
  Browser,
  createPagesHarness,
  SECURITY_HEADERS,
  XSS_ATTR,
  XSS_TITLE,
  type PagesHarness,
} from '../helpers/pages-harness.js';

function assertSecurityHeaders(res: { headers: Record<string, unknown> }): void {
  for (const [k, v] of Object.entries(SECURITY_HEADERS)) assert.equal(res.headers[k], v, k);
}

describe('html tag', () => {
  test('escapes interpolations unless raw, joins arrays, drops null/false', () => {
    const out = html`<p title="${`"'<>&`}">${XSS_TITLE}${raw('<b>ok</b>')}${[1, '<i>', null, false]}</p>`;
    assert.equal(
      out.value,
      '<p title="&quot;&#39;&lt;&gt;&amp;">&lt;script&gt;alert(1)&lt;/script&gt;<b>ok</b>1&lt;i&gt;</p>',
    );
    assert.equal(escapeHtml('`'), '&#96;');
  });
});

describe('MemoryAttemptStore', () => {
  test('counts in a fixed window and starts again after it', async () => {
    let now = 1000;
    const s = new MemoryAttemptStore(() => now);
    assert.equal(await s.peek('k'), null);
    assert.deepEqual(await s.hit('k', 60_000), { count: 1, resetMs: 60_000 });
    now += 10_000;
    assert.deepEqual(await s.hit('k', 60_000), { count: 2, resetMs: 50_000 });
    assert.deepEqual(await s.peek('k'), { count: 2, resetMs: 50_000 });
    now += 50_000;
    assert.equal(await s.peek('k'), null);
    assert.equal((await s.hit('k', 60_000)).count, 1);
    await s.reset('k');
    assert.equal(await s.peek('k'), null);
  });
});

describeEachDialect('report pages', (dialect) => {
  let h: PagesHarness;
  let pub: StoredReport;
  let priv: StoredReport;
  let pw: StoredReport;
  let xss: StoredReport;

  before(async () => {
    h = await createPagesHarness(dialect);
    pub = await h.report(h.alice, '/');
    priv = await h.report(h.alice, '/bad', 1);
    pw = await h.report(h.alice, '/', 2, 'correct horse');
    xss = await h.report(h.alice, '/xss');
  });
  after(() => h.close());

  test('a public report renders for anyone, with its score, categories and checks', async () => {
    const res = await new Browser(h.app).get(`/reports/${pub.id}`);
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/html; charset=utf-8/);
    assertSecurityHeaders(res);
    assert.ok(res.body.includes(escapeHtml(pub.url)));
    assert.ok(res.body.includes(`Score ${pub.score} out of 100`));
    for (const name of ['SEO', 'Performance', 'Security', 'Miscellaneous'])
      assert.ok(res.body.includes(`>${name}</h2>`), name);
    for (const c of Object.values(pub.results)) assert.ok(res.body.includes(`id="check-${c.id}"`), c.id);
    assert.ok(!/<script>(?!<\/script>)/.test(res.body), 'no inline script');
    assert.ok(!/ style=/.test(res.body), 'no inline style');
  });

  test('failed checks come first in each category, with how to fix', async () => {
    const res = await new Browser(h.app).get(`/reports/${priv.id}`, {});
    assert.equal(res.statusCode, 404); // private: anonymous sees nothing
    const owner = new Browser(h.app);
    await owner.login(h.alice.key);
    const page = await owner.get(`/reports/${priv.id}`);
    assert.equal(page.statusCode, 200);
    const section = page.body.slice(
      page.body.indexOf('id="category-seo"'),
      page.body.indexOf('id="category-performance"'),
    );
    const states = [...section.matchAll(/class="check check--(\w+)"/g)].map((m) => m[1]);
    const order = { failed: 0, inconclusive: 1, passed: 2 } as Record<string, number>;
    assert.ok(states.length > 3);
    assert.deepEqual(
      states,
      [...states].sort((a, b) => order[a!]! - order[b!]!),
    );
    assert.ok(section.includes('How to fix'));
  });

  test('a private report is the same 404 as a missing one, for anonymous and other users', async () => {
    const anon = new Browser(h.app);
    const missing = await anon.get('/reports/999999');
    const hidden = await anon.get(`/reports/${priv.id}`);
    assert.equal(missing.statusCode, 404);
    assert.equal(hidden.statusCode, 404);
    // the only difference a different URL makes: the sign-in link's way back
    assert.equal(hidden.body, missing.body.replaceAll('999999', String(priv.id)));
    assertSecurityHeaders(hidden);
    // and byte for byte at the same address: a private report, then that report deleted
    const gone = await h.report(h.alice, '/bad', 1);
    const before = await anon.get(`/reports/${gone.id}`);
    await h.services.reports.delete(h.alice.id, gone.id);
    const afterDelete = await anon.get(`/reports/${gone.id}`);
    assert.equal(before.statusCode, afterDelete.statusCode);
    assert.equal(before.body, afterDelete.body);
    assert.ok(!hidden.body.includes(priv.url));
    const bad = await anon.get('/reports/abc');
    assert.equal(bad.statusCode, 404);
    // a public report's id in a form the validator would coerce (hex, exponent, sign, decimal)
    const pub = await h.report(h.alice, '/bad', 0);
    assert.equal((await anon.get(`/reports/${pub.id}`)).statusCode, 200);
    for (const id of [`0x${pub.id.toString(16)}`, `${pub.id}e0`, `+${pub.id}`, `${pub.id}.0`]) {
      const odd = await anon.get(`/reports/${id}`);
      assert.equal(odd.statusCode, 404, id);
      assert.match(String(odd.headers['content-type']), /^text\/html/);
    }

    const bob = new Browser(h.app);
    assert.equal((await bob.login(h.bob.key)).statusCode, 303);
    const m2 = await bob.get('/reports/999999');
    const h2 = await bob.get(`/reports/${priv.id}`);
    assert.equal(h2.statusCode, 404);
    assert.equal(h2.body, m2.body.replaceAll('999999', String(priv.id)));
    // a POST (password form) to a private report is the same 404 too
    const token = await bob.csrf('/dashboard');
    const p1 = await bob.post(`/reports/${priv.id}`, { _csrf: token, password: 'x' });
    const p2 = await bob.post('/reports/999999', { _csrf: token, password: 'x' });
    assert.equal(p1.statusCode, 404);
    assert.equal(p1.body, p2.body);
  });

  test('the owner sees every report whatever its privacy', async () => {
    const owner = new Browser(h.app);
    await owner.login(h.alice.key);
    for (const r of [pub, priv, pw]) {
      const res = await owner.get(`/reports/${r.id}`);
      assert.equal(res.statusCode, 200, `report ${r.id}`);
      assert.ok(res.body.includes('You own this report'));
    }
  });

  test('password: form, wrong, right (scoped cookie), other reports stay locked', async () => {
    const b = new Browser(h.app, '10.0.0.1');
    const form = await b.get(`/reports/${pw.id}`);
    assert.equal(form.statusCode, 200);
    assert.ok(form.body.includes('name="password"'));
    assert.ok(!form.body.includes(pw.url), 'the form reveals nothing of the report');
    assertSecurityHeaders(form);
    const token = /name="_csrf" value="([^"]+)"/.exec(form.body)![1]!;

    const wrong = await b.post(`/reports/${pw.id}`, { _csrf: token, password: 'nope' });
    assert.equal(wrong.statusCode, 401);
    assert.ok(wrong.body.includes('That password is not right.'));
    assert.ok(!wrong.body.includes(pw.url));
    assert.equal(String(wrong.headers['set-cookie'] ?? '').includes('pg_access'), false);

    const right = await b.post(`/reports/${pw.id}`, { _csrf: token, password: 'correct horse' });
    assert.equal(right.statusCode, 303);
    assert.equal(right.headers.location, `/reports/${pw.id}`);
    const cookie = [right.headers['set-cookie']].flat().find((c) => c?.startsWith('pg_access='))!;
    assert.match(cookie, new RegExp(`Path=/reports/${pw.id}(;|$)`));
    assert.match(cookie, /HttpOnly/);
    assert.match(cookie, /SameSite=Lax/);
    assert.doesNotMatch(cookie, /Secure/);
    assert.doesNotMatch(cookie, /Max-Age|Expires/, 'a browser-session cookie');

    const open = await b.get(`/reports/${pw.id}`);
    assert.equal(open.statusCode, 200);
    assert.ok(open.body.includes(escapeHtml(pw.url)));

    // the pass is for this report only: moved to another password report it opens nothing
    const other = await h.report(h.alice, '/', 2, 'another');
    const value = b.cookies.get('pg_access')!.value;
    const res = await h.app.inject({
      url: `/reports/${other.id}`,
      headers: { cookie: `pg_access=${value}` },
    });
    assert.ok(res.body.includes('name="password"'));

    // a change by the owner (new password) locks the page again
    await h.services.reports.update(h.alice.id, pw.id, { privacy: 2, password: 'a new one' });
    const relocked = await b.get(`/reports/${pw.id}`);
    assert.ok(relocked.body.includes('name="password"'));
  });

  test('password: 5 wrong attempts a minute per report and IP, then 429 with Retry-After', async () => {
    const r = await h.report(h.alice, '/', 2, 'secret');
    const b = new Browser(h.app, '10.0.0.2');
    const token = await b.csrf(`/reports/${r.id}`);
    for (let i = 0; i < 5; i++) {
      const res = await b.post(`/reports/${r.id}`, { _csrf: token, password: `guess${i}` });
      assert.equal(res.statusCode, 401, `attempt ${i + 1}`);
    }
    const blocked = await b.post(`/reports/${r.id}`, { _csrf: token, password: 'secret' });
    assert.equal(blocked.statusCode, 429, 'even the right password waits');
    assert.ok(Number(blocked.headers['retry-after']) >= 1 && Number(blocked.headers['retry-after']) <= 60);
    assert.match(String(blocked.headers['content-type']), /text\/html/);
    assertSecurityHeaders(blocked);
    assert.ok(!blocked.body.includes(r.url));
    assert.equal(b.cookies.has('pg_access'), false);

    // another client IP, or another report, is not blocked
    const c = new Browser(h.app, '10.0.0.3');
    const t2 = await c.csrf(`/reports/${r.id}`);
    assert.equal((await c.post(`/reports/${r.id}`, { _csrf: t2, password: 'secret' })).statusCode, 303);
    const r2 = await h.report(h.alice, '/', 2, 'other');
    assert.equal((await b.post(`/reports/${r2.id}`, { _csrf: token, password: 'other' })).statusCode, 303);
  });

  test('text from the audited page is escaped', async () => {
    const res = await new Browser(h.app).get(`/reports/${xss.id}`);
    assert.equal(res.statusCode, 200);
    assert.ok(res.body.includes('&lt;script&gt;alert(1)&lt;/script&gt;'), 'the title shows as text');
    assert.ok(!res.body.includes(XSS_TITLE));
    assert.ok(!res.body.includes(XSS_ATTR));
    assert.ok(!/<img src=x/i.test(res.body));
    assert.ok(!/<svg onload/i.test(res.body));
  });

  test('unknown pages are HTML 404s with the headers; /api stays JSON', async () => {
    const res = await h.app.inject({ url: '/no/such/page' });
    assert.equal(res.statusCode, 404);
    assert.match(String(res.headers['content-type']), /text\/html/);
    assertSecurityHeaders(res);
    const api = await h.app.inject({ url: '/api/v1/nothing' });
    assert.equal(api.statusCode, 404);
    assert.match(String(api.headers['content-type']), /application\/json/);
  });

  test('the stylesheet and script are served by the app, cached by version', async () => {
    const page = await h.app.inject({ url: `/reports/${pub.id}` });
    const css = /href="(\/assets\/pagegrade\.css\?v=\w+)"/.exec(page.body)![1]!;
    const js = /src="(\/assets\/pagegrade\.js\?v=\w+)"/.exec(page.body)![1]!;
    const c = await h.app.inject({ url: css });
    assert.equal(c.statusCode, 200);
    assert.match(String(c.headers['content-type']), /^text\/css/);
    assert.match(String(c.headers['cache-control']), /immutable/);
    assertSecurityHeaders(c);
    assert.ok(c.body.includes('@media print'));
    const j = await h.app.inject({ url: js });
    assert.match(String(j.headers['content-type']), /^text\/javascript/);
  });
});

describeEachDialect('sign-in, CSRF and the dashboard', (dialect) => {
  let h: PagesHarness;
  before(async () => {
    h = await createPagesHarness(dialect);
  });
  after(() => h.close());

  test('login sets a signed HttpOnly SameSite=Lax session; a wrong key is refused', async () => {
    const b = new Browser(h.app, '10.1.0.1');
    const token = await b.csrf('/login');
    const wrong = await b.post('/login', { _csrf: token, key: 'pg_not-a-key', next: '/dashboard' });
    assert.equal(wrong.statusCode, 401);
    assert.ok(wrong.body.includes('That API key is not valid.'));
    assert.equal(b.cookies.has('pg_session'), false);

    const ok = await b.post('/login', { _csrf: token, key: h.alice.key, next: '//evil.example/' });
    assert.equal(ok.statusCode, 303);
    assert.equal(ok.headers.location, '/dashboard', 'next must be a local path');
    for (const next of ['/\t/evil.example/', '/\\evil.example', 'https://evil.example/', '/%0d%0aSet-Cookie:x']) {
      const c = new Browser(h.app, '10.1.0.2');
      const t = await c.csrf('/login');
      const res = await c.post('/login', { _csrf: t, key: h.alice.key, next });
      assert.equal(res.statusCode, 303);
      const location = String(res.headers.location);
      assert.ok(location.startsWith('/') && !location.startsWith('//') && !/[\r\n\t]/.test(location), location);
    }
    const unicode = new Browser(h.app, '10.1.0.3');
    const ut = await unicode.csrf('/login');
    const ures = await unicode.post('/login', { _csrf: ut, key: h.alice.key, next: '/dashboard?search=café' });
    assert.equal(ures.headers.location, '/dashboard?search=caf%C3%A9');
    const cookie = [ok.headers['set-cookie']].flat().find((c) => c?.startsWith('pg_session='))!;
    assert.match(cookie, /HttpOnly/);
    assert.match(cookie, /SameSite=Lax/);
    assert.match(cookie, /Path=\//);
    assert.doesNotMatch(cookie, /Secure/);
    assert.ok(!cookie.includes(h.alice.key), 'the key is not in the cookie');

    const dash = await b.get('/dashboard');
    assert.equal(dash.statusCode, 200);
    assert.ok(dash.body.includes('alice'));

    // a tampered session is no session
    const v = b.cookies.get('pg_session')!.value;
    const tampered = await h.app.inject({
      url: '/dashboard',
      headers: { cookie: `pg_session=${v.replace(/^s2\.\d+/, `s2.${h.bob.id}`)}` },
    });
    assert.equal(tampered.statusCode, 303);
    assert.match(String(tampered.headers.location), /^\/login\?next=/);
  });

  test('cookies are Secure when the public URL is https', async () => {
    const app = await buildApp(
      { publicUrl: 'https://pagegrade.example', rateLimit: 0, logLevel: 'silent' },
      { services: h.services, healthCheck: async () => {} },
    );
    try {
      const b = new Browser(app);
      const res = await b.login(h.alice.key);
      assert.equal(res.statusCode, 303);
      for (const c of [res.headers['set-cookie']].flat()) assert.match(String(c), /; Secure/);
    } finally {
      await app.close();
    }
  });

  test('an unexpected fault is the HTML 500 page, with nothing of the fault in it', async () => {
    const failing = {
      ...h.services,
      reports: {
        ...h.services.reports,
        forViewer: async () => {
          throw new Error('database on fire at /var/secret/path');
        },
      },
    };
    const app = await buildApp(
      { publicUrl: 'http://pagegrade.test', rateLimit: 0, logLevel: 'silent' },
      { services: failing, healthCheck: async () => {} },
    );
    try {
      const res = await app.inject({ url: '/reports/1' });
      assert.equal(res.statusCode, 500);
      assert.match(String(res.headers['content-type']), /^text\/html/);
      assertSecurityHeaders(res);
      assert.ok(res.body.includes('Something went wrong'));
      assert.ok(!res.body.includes('fire') && !res.body.includes('/var/secret'));
    } finally {
      await app.close();
    }
  });

  test('revoking the key ends its sessions; logout ends the session', async () => {
    const issued = await h.services.keys.create(h.bob.id);
    const b = new Browser(h.app);
    await b.login(issued.key);
    assert.equal((await b.get('/dashboard')).statusCode, 200);
    const staleToken = await b.csrf('/dashboard');
    await h.services.keys.revoke(issued.info.id);
    assert.equal((await b.get('/dashboard')).statusCode, 303);
    // the sign-out button of a page rendered before the revocation still signs out
    assert.equal((await b.post('/logout', { _csrf: staleToken })).statusCode, 303);
    assert.equal(b.cookies.has('pg_session'), false);

    const c = new Browser(h.app);
    await c.login(h.bob.key);
    const token = await c.csrf('/dashboard');
    const out = await c.post('/logout', { _csrf: token });
    assert.equal(out.statusCode, 303);
    assert.equal(c.cookies.has('pg_session'), false);
    assert.equal((await c.get('/dashboard')).statusCode, 303);

    // GET /logout: a sign-out form when signed in (its token works), /login otherwise
    assert.equal((await c.get('/logout')).statusCode, 303);
    await c.login(h.bob.key);
    const page = await c.get('/logout');
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /<form method="post" action="\/logout"/);
    assert.equal((await c.post('/logout', { _csrf: await c.csrf('/logout') })).statusCode, 303);
    assert.equal(c.cookies.has('pg_session'), false);
  });

  test('every POST needs this browser’s CSRF token', async () => {
    const b = new Browser(h.app);
    // no token, a made-up one
    assert.equal((await b.post('/login', { key: h.alice.key })).statusCode, 403);
    await b.get('/login');
    assert.equal((await b.post('/login', { key: h.alice.key, _csrf: 'x'.repeat(43) })).statusCode, 403);
    // another browser's token
    const other = new Browser(h.app);
    const foreign = await other.csrf('/login');
    const r403 = await b.post('/login', { key: h.alice.key, _csrf: foreign });
    assert.equal(r403.statusCode, 403);
    assert.match(String(r403.headers['content-type']), /text\/html/);
    assertSecurityHeaders(r403);

    await b.login(h.alice.key);
    // a token made before signing in is not valid for the signed-in session
    const anonToken = await other.csrf('/login');
    other.cookies.delete('pg_session');
    const before = b.cookies.get('pg_csrf')!.value;
    assert.equal(
      (await b.post('/dashboard/reports', { _csrf: anonToken, url: `${h.site('csrf')}/` })).statusCode,
      403,
    );
    assert.equal(b.cookies.get('pg_csrf')!.value, before);
    assert.equal((await b.post('/logout', {})).statusCode, 403);
    // cross-site form posts are refused even with a token
    const token = await b.csrf('/dashboard');
    const cross = await b.post(
      '/dashboard/reports',
      { _csrf: token, url: `${h.site('csrf')}/` },
      { 'sec-fetch-site': 'cross-site' },
    );
    assert.equal(cross.statusCode, 403);
    assert.equal((await h.services.reports.list(h.alice.id, { search: 'csrf' })).total, 0);
  });

  test('the dashboard pages its list and keeps the filters in the page links', async () => {
    const user = await h.services.users.create('pager');
    const u = { id: user.organization.id, key: user.key.key };
    for (let i = 0; i < 11; i++) await h.report(u, `/?n=${i}`, 0, undefined, 'pages');
    const b = new Browser(h.app);
    await b.login(u.key);
    const first = await b.get('/dashboard?project=pages.test&sort=asc');
    assert.equal((first.body.match(/class="report-row"/g) ?? []).length, 10);
    assert.ok(first.body.includes('Page 1 of 2'));
    assert.ok(first.body.includes('1–10 of 11'));
    const next = /href="([^"]+)" rel="next"/.exec(first.body)![1]!.replaceAll('&amp;', '&');
    assert.equal(next, '/dashboard?project=pages.test&sort=asc&page=2');
    const second = await b.get(next);
    assert.equal((second.body.match(/class="report-row"/g) ?? []).length, 1);
    assert.ok(second.body.includes('11–11 of 11'));
    assert.ok(second.body.includes('rel="prev"'));
    const past = await b.get('/dashboard?page=9');
    assert.equal(past.statusCode, 200);
    assert.ok(past.body.includes('No reports on this page.'));
  });

  test('the dashboard: anonymous are sent to sign in', async () => {
    const res = await h.app.inject({ url: '/dashboard?project=x' });
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, `/login?next=${encodeURIComponent('/dashboard?project=x')}`);
  });

  test('the dashboard: create, list with filters, re-run, privacy, delete, projects', async () => {
    const b = new Browser(h.app);
    await b.login(h.alice.key);
    let token = await b.csrf('/dashboard');

    // create: a page that cannot be fetched shows the 422 message
    const bad = await b.post('/dashboard/reports', {
      _csrf: token,
      url: `${h.site('one')}/json`,
      privacy: '0',
    });
    assert.equal(bad.statusCode, 422);
    // the error appears once, next to its field (no alert repeating it)
    assert.doesNotMatch(bad.body, /alert--error/);
    const urlError = /class="field__error" id="create-url-error">([^<]+)</.exec(bad.body)![1]!;
    assert.equal(bad.body.split(urlError).length - 1, 1, urlError);
    assert.match(bad.body, /id="create-url"[^>]*aria-invalid="true"/);
    // in the form's words, not the API's
    const badScheme = await b.post('/dashboard/reports', { _csrf: token, url: 'ftp://x', privacy: '0' });
    assert.equal(badScheme.statusCode, 422);
    assert.ok(
      badScheme.body.includes(
        'id="create-url-error">Enter a full web address that starts with http:// or https://.<',
      ),
      badScheme.body,
    );
    assert.ok(!badScheme.body.includes('The url must'));
    const hint = await b.post('/dashboard/reports', { _csrf: token, url: 'example.com', privacy: '0' });
    assert.ok(hint.body.includes('— did you mean https://example.com/?'), hint.body);
    // the field is text with a URL keyboard, so that the browser sends `example.com/page` to the
    // server (type=url would refuse it before the suggestion could answer: issue 23 §5)
    assert.match(hint.body, /<input id="create-url" name="url" type="text" inputmode="url"/);
    assert.doesNotMatch(hint.body, /type="url"/);
    const bare = await b.post('/dashboard/reports', { _csrf: token, url: 'example.com/page', privacy: '0' });
    assert.equal(bare.statusCode, 422);
    assert.ok(bare.body.includes('— did you mean https://example.com/page?'), bare.body);
    const noPw = await b.post('/dashboard/reports', {
      _csrf: token,
      url: `${h.site('one')}/`,
      privacy: '2',
      password: '',
    });
    assert.equal(noPw.statusCode, 422);
    assert.ok(noPw.body.includes('id="create-password-error">Choose a password for a password-protected report.<'));
    assert.equal(noPw.body.split('Choose a password for a password-protected report.').length - 1, 1);
    assert.ok(!noPw.body.includes('privacy is 2'));
    // the choice made is kept
    assert.match(noPw.body, /<option value="2" selected>/);

    const created = await b.post('/dashboard/reports', {
      _csrf: token,
      url: `${h.site('one')}/`,
      privacy: '0',
    });
    assert.equal(created.statusCode, 303);
    const id = Number(/^\/reports\/(\d+)$/.exec(String(created.headers.location))![1]);
    await b.post('/dashboard/reports', { _csrf: token, url: `${h.site('two')}/bad`, privacy: '1' });
    await h.report(h.bob, '/', 0, undefined, 'bobsite');

    const dash = await b.get('/dashboard');
    assert.ok(dash.body.includes(`id="report-${id}"`));
    assert.ok(dash.body.includes('two.test'));
    assert.ok(!dash.body.includes('bobsite'), 'only the user’s own reports');
    const filtered = await b.get('/dashboard?project=two.test');
    assert.ok(!filtered.body.includes(`id="report-${id}"`));
    assert.ok(filtered.body.includes(`${h.site('two')}/bad`));
    const sorted = await b.get('/dashboard?sort_by=url&sort=asc&result=good&search=ONE');
    assert.equal(sorted.statusCode, 200);
    assert.ok(sorted.body.includes(`id="report-${id}"`));
    // a bad value in a dashboard URL falls back to its default with a notice (never a 422 page)
    const invalid = await b.get('/dashboard?per_page=7&sort_by=size');
    assert.equal(invalid.statusCode, 200);
    assert.ok(invalid.body.includes('Per page cannot be “7”, so 10 per page is shown.'));
    assert.ok(invalid.body.includes('Sort by cannot be “size”, so Created is shown.'));

    // re-run
    token = await b.csrf('/dashboard');
    const before = (await h.services.reports.get(h.alice.id, id)).generatedAt;
    const rerun = await b.post(`/dashboard/reports/${id}/rerun`, {
      _csrf: token,
      back: '/dashboard?project=one.test',
    });
    assert.equal(rerun.statusCode, 303);
    assert.equal(rerun.headers.location, '/dashboard?project=one.test&done=rerun');
    assert.notEqual((await h.services.reports.get(h.alice.id, id)).generatedAt, before);

    // privacy: password without one is refused — the list comes back as it was sent from (no
    // row moves), the row's panel stays open with Password chosen and the error next to the
    // password field, once; with a password it is set
    const from = '/dashboard?sort_by=url&sort=desc';
    const listed = await b.get(from);
    const order = (body: string) => [...body.matchAll(/<li class="report-row" id="report-(\d+)"/g)].map((m) => m[1]);
    const noPass = await b.post(`/dashboard/reports/${id}/privacy`, {
      _csrf: token,
      privacy: '2',
      password: '',
      back: from,
    });
    assert.equal(noPass.statusCode, 422);
    assert.deepEqual(order(noPass.body), order(listed.body));
    assert.match(noPass.body, /<option value="url" selected>/);
    const row = noPass.body.slice(noPass.body.indexOf(`id="report-${id}"`));
    const panel = row.slice(row.indexOf('<details'), row.indexOf('</details>'));
    assert.match(panel, /^<details class="settings" open>/);
    assert.match(panel, /<select id="privacy-\d+" name="privacy">[^]*<option value="2" selected>/);
    assert.match(panel, /id="pw-\d+-error">Choose a password for a password-protected report.</);
    assert.match(panel, /name="password"[^>]*aria-invalid="true"/);
    assert.equal(noPass.body.split('Choose a password for a password-protected report.').length - 1, 1);
    assert.doesNotMatch(noPass.body, /alert--error/);
    // the other rows' panels stay closed
    assert.equal((noPass.body.match(/<details class="settings" open>/g) ?? []).length, 1);
    const setPw = await b.post(`/dashboard/reports/${id}/privacy`, {
      _csrf: token,
      privacy: '2',
      password: 'pw123',
      back: '//evil',
    });
    assert.equal(setPw.statusCode, 303);
    assert.equal(setPw.headers.location, '/dashboard?done=privacy');
    const r = await h.services.reports.get(h.alice.id, id);
    assert.equal(r.privacy, 2);
    assert.equal(await h.services.reports.verifyPassword(id, 'pw123'), true);

    // another user's report answers 404
    const bobReports = await h.services.reports.list(h.bob.id, {});
    const bobId = bobReports.items[0]!.id;
    assert.equal((await b.post(`/dashboard/reports/${bobId}/delete`, { _csrf: token })).statusCode, 404);
    assert.equal(
      (await b.post(`/dashboard/reports/${bobId}/privacy`, { _csrf: token, privacy: '1' })).statusCode,
      404,
    );

    // delete
    const del = await b.post(`/dashboard/reports/${id}/delete`, { _csrf: token });
    assert.equal(del.statusCode, 303);
    assert.equal((await b.get(`/reports/${id}`)).statusCode, 404);

    // projects: listed, deleted with their reports
    const projects = await b.get('/dashboard/projects');
    assert.equal(projects.statusCode, 200);
    assert.ok(projects.body.includes('two.test'));
    assert.ok(!projects.body.includes('bobsite'));
    const pdel = await b.post('/dashboard/projects/two.test/delete', { _csrf: token });
    assert.equal(pdel.statusCode, 303);
    assert.equal((await h.services.reports.list(h.alice.id, { project: 'two.test' })).total, 0);
    assert.equal((await b.post('/dashboard/projects/bobsite.test/delete', { _csrf: token })).statusCode, 404);
    assert.equal((await b.get('/dashboard/projects?sort_by=nope')).statusCode, 200);
  });
});

describe('password throttle shared through Redis', () => {
  test('two app instances given the same Redis count wrong passwords together', async (t) => {
    if (skipUnlessRequired(t, await redisUnavailable(), 'PAGEGRADE_REQUIRE_REDIS')) return;
    const h = await createPagesHarness();
    const prefix = `pagegrade-test-pages-${randomId()}:`;
    const redis = new Redis(REDIS_URL, { keyPrefix: prefix, maxRetriesPerRequest: 1 });
    redis.on('error', () => {});
    const apps = await Promise.all(
      [1, 2].map(() =>
        buildApp(
          { publicUrl: 'http://pagegrade.test', rateLimit: 0, logLevel: 'silent' },
          { services: h.services, healthCheck: async () => {}, redis },
        ),
      ),
    );
    try {
      const r = await h.report(h.alice, '/', 2, 'shared');
      for (let i = 0; i < 5; i++) {
        // alternate between the two instances, as a load balancer would
        const b = new Browser(apps[i % 2]!, '10.9.0.1');
        const token = await b.csrf(`/reports/${r.id}`);
        assert.equal((await b.post(`/reports/${r.id}`, { _csrf: token, password: 'no' })).statusCode, 401);
      }
      for (const app of apps) {
        const b = new Browser(app, '10.9.0.1');
        const token = await b.csrf(`/reports/${r.id}`);
        const res = await b.post(`/reports/${r.id}`, { _csrf: token, password: 'shared' });
        assert.equal(res.statusCode, 429);
        assert.ok(Number(res.headers['retry-after']) >= 1);
      }
      assert.ok((await redis.keys(`${prefix}*`)).length > 0, 'the counts live in Redis under the prefix');
    } finally {
      for (const app of apps) await app.close();
      redis.disconnect();
      await clearRedisPrefix(prefix);
      await h.close();
    }
  });
});
