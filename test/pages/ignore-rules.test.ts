// The project page's ignore rules (docs/sites.md, "Issue states and ignore rules"), on SQLite and
// PostgreSQL: a rule added from the page (303 back to it, listed with a Remove button, in the
// API's list and its change log as made from the dashboard), a 422 with the error beside its
// field and the form refilled, nothing added; the rule removed from the page; other users,
// keys limited to other projects and a POST without the CSRF token are refused.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { buildTestApp, describeEachDialect, type TestApp } from '../helpers/app.js';
import { Browser } from '../helpers/browser.js';
import { buildUser, type TestUser } from '../helpers/factories.js';

describeEachDialect('the project page: ignore rules', (dialect) => {
  let t: TestApp;
  let alice: TestUser;
  let b: Browser;
  let token: string;
  const project = 'rules.test';
  const page = `/dashboard/projects/${project}`;

  before(async () => {
    t = await buildTestApp(dialect);
    alice = await buildUser(t.services, 'alice');
    await t.services.projects.put(alice.id, project, { start_url: `https://${project}/` });
    b = new Browser(t.app);
    await b.login(alice.key);
    token = await b.csrf(page);
  });
  after(() => t?.close());

  const rules = async () => {
    const res = await t.request({ url: `/api/v1/projects/${project}/ignore-rules`, headers: alice.auth });
    assert.equal(res.statusCode, 200, res.body);
    return (
      res.json() as {
        data: {
          rules: { rule_id: string; id: string; url_pattern: string; expires_at: string | null }[];
          changes: { action: string; by: { via: string } }[];
        };
      }
    ).data;
  };

  test('an empty list, then a rule added from the page, listed, in the API and its change log', async () => {
    let res = await b.get(page);
    assert.equal(res.statusCode, 200);
    assert.match(res.body, /No ignore rules: every check and finding counts\./);
    res = await b.post(`${page}/ignore-rules`, {
      _csrf: token,
      id: 'meta_description',
      url_pattern: '/blog/*',
      reason: 'The blog has no descriptions.',
      expires_at: '2099-12-31',
    });
    assert.equal(res.statusCode, 303, res.body);
    assert.equal(res.headers.location, `${page}?done=ignore_added#ignore-title`);
    res = await b.get(`${page}?done=ignore_added`);
    assert.match(res.body, /The ignore rule was added/);
    assert.match(
      res.body,
      /<code>meta_description<\/code> on <code>\/blog\/\*<\/code>: The blog has no descriptions\./,
    );
    const data = await rules();
    assert.equal(data.rules.length, 1);
    assert.equal(data.rules[0]!.url_pattern, '/blog/*');
    assert.equal(data.rules[0]!.expires_at, '2099-12-31T23:59:59.000Z');
    assert.match(res.body, new RegExp(`/ignore-rules/${data.rules[0]!.rule_id}/delete`));
    assert.deepEqual(
      data.changes.map((c) => [c.action, c.by.via]),
      [['add', 'dashboard']],
    );
  });

  test('a 422 names the field beside it, refills the form and adds nothing', async () => {
    const before = (await rules()).rules.length;
    const res = await b.post(`${page}/ignore-rules`, {
      _csrf: token,
      id: 'no_such_check',
      url_pattern: '/shop/*',
      reason: 'Because.',
      expires_at: '',
    });
    assert.equal(res.statusCode, 422, res.body);
    assert.match(res.body, /The rule was not added:/);
    assert.match(res.body, /id="ignore-id"[^>]*value="no_such_check"[^>]*aria-invalid="true"/);
    assert.match(res.body, /<p class="field__error" id="ignore-id-error">[^<]*check id or a site finding id/);
    assert.match(res.body, /id="ignore-url_pattern"[^>]*value="\/shop\/\*"/);
    assert.equal((await rules()).rules.length, before);
  });

  test('other users, limited keys and a POST without the CSRF token are refused; the owner removes it', async () => {
    const { rules: list } = await rules();
    const ruleId = list[0]!.rule_id;
    const bob = await buildUser(t.services, 'bob');
    const bobs = new Browser(t.app);
    await bobs.login(bob.key);
    const bobToken = await bobs.csrf('/dashboard/projects');
    const add = { _csrf: bobToken, id: 'meta_description', reason: 'x' };
    assert.equal((await bobs.post(`${page}/ignore-rules`, add)).statusCode, 404);
    assert.equal(
      (await bobs.post(`${page}/ignore-rules/${ruleId}/delete`, { _csrf: bobToken })).statusCode,
      404,
    );
    const limited = await t.services.keys.create(alice.id, { scope: 'write', projects: ['elsewhere.test'] });
    const lb = new Browser(t.app);
    await lb.login(limited.key);
    const lbToken = await lb.csrf('/dashboard/projects');
    assert.equal(
      (await lb.post(`${page}/ignore-rules/${ruleId}/delete`, { _csrf: lbToken })).statusCode,
      404,
    );
    assert.equal(
      (await b.post(`${page}/ignore-rules/${ruleId}/delete`, {})).statusCode,
      403,
      'no CSRF token',
    );
    assert.equal((await rules()).rules.length, 1);

    const res = await b.post(`${page}/ignore-rules/${ruleId}/delete`, { _csrf: token });
    assert.equal(res.statusCode, 303, res.body);
    assert.equal(res.headers.location, `${page}?done=ignore_removed#ignore-title`);
    const after = await rules();
    assert.equal(after.rules.length, 0);
    assert.deepEqual(
      after.changes.map((c) => c.action),
      ['remove', 'add'],
    );
    // removed already: the not-found page
    assert.equal((await b.post(`${page}/ignore-rules/${ruleId}/delete`, { _csrf: token })).statusCode, 404);
  });
});
