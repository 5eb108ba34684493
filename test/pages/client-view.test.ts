// What a client sees (issue 22 §4; docs/teams.md "What a client sees"), on SQLite and
// PostgreSQL: a viewer's dashboard pages hold no write form and no button that would fail (the
// HTML parsed: every POST form but sign-out, every submit button), a member's hold them; every
// link a viewer's page offers loads without a 403; the members page (/dashboard/members):
// list with roles and a limited viewer's projects, change a role and projects, remove, the
// last owner refused with a clear message, an admin never touching an owner, CSRF on its forms.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Parser } from 'htmlparser2';
import { buildTestApp, describeEachDialect, type TestApp } from '../helpers/app.js';
import { Browser } from '../helpers/browser.js';
import { buildUser, type TestUser } from '../helpers/factories.js';
import type { Role } from '../../src/services/accounts/types.js';

/** A page's POST forms (their actions), its submit buttons' words and its same-site links. */
function controlsOf(body: string): { posts: string[]; buttons: string[]; links: string[] } {
  const posts: string[] = [];
  const buttons: string[] = [];
  const links: string[] = [];
  let inButton = false;
  let text = '';
  const parser = new Parser({
    onopentag(name, a) {
      if (name === 'form' && (a.method ?? 'get').toLowerCase() === 'post') posts.push(a.action ?? '');
      if (name === 'button' && (a.type ?? 'submit') === 'submit') {
        inButton = true;
        text = '';
      }
      if (name === 'a' && a.href?.startsWith('/') && !a.href.startsWith('//')) links.push(a.href);
    },
    ontext(t) {
      if (inButton) text += t;
    },
    onclosetag(name) {
      if (name === 'button' && inButton) {
        inButton = false;
        buttons.push(text.replace(/\s+/g, ' ').trim());
      }
    },
  });
  parser.write(body);
  parser.end();
  return { posts, buttons, links };
}

/** the write forms of a page: every POST form but signing out */
const writeForms = (body: string) => controlsOf(body).posts.filter((a) => a !== '/logout');

describeEachDialect('what a client sees: no write controls for a viewer; the members page', (dialect) => {
  let t: TestApp;
  let owner: TestUser;
  const keys = {} as Record<Role, string>;
  const ids = {} as Record<Role | 'client', number>;
  let reportId: number;
  const project = 'client-a.canned.test';

  before(async () => {
    t = await buildTestApp(dialect, { logLevel: 'silent' });
    owner = await buildUser(t.services, 'agency');
    keys.owner = owner.key;
    ids.owner = owner.id;
    for (const role of ['admin', 'member', 'viewer'] as const) {
      const { user } = await t.services.users.create(`${role}-of-agency`);
      await t.services.organizations.addMember('agency', user.name, role);
      keys[role] = (await t.services.keys.create(user.name, { org: 'agency' })).key;
      ids[role] = user.id;
    }
    const { user } = await t.services.users.create('client-bob');
    await t.services.organizations.addMember('agency', 'client-bob', 'viewer', [project]);
    ids.client = user.id;
    const r = await t.request({
      method: 'POST',
      url: '/api/v1/reports',
      headers: { ...owner.auth, 'content-type': 'application/json' },
      payload: JSON.stringify({ url: `http://${project}/`, privacy: 1 }),
    });
    assert.equal(r.statusCode, 201, r.body);
    reportId = r.json().data.id;
  });
  after(() => t?.close());

  const pages = () => [
    '/dashboard',
    '/dashboard/projects',
    `/dashboard/projects/${project}`,
    `/reports/${reportId}`,
    '/dashboard/batches',
    '/dashboard/schedules',
    '/dashboard/keys',
  ];

  test("a viewer's pages hold no write form or button; every link on them loads (no 403)", async () => {
    const b = new Browser(t.app);
    assert.equal((await b.login(keys.viewer)).statusCode, 303);
    const links = new Set<string>();
    for (const url of pages()) {
      const res = await b.get(url);
      assert.equal(res.statusCode, 200, `${url}: ${res.statusCode}`);
      assert.deepEqual(writeForms(res.body), [], `${url} has no write form`);
      const { buttons } = controlsOf(res.body);
      assert.ok(
        buttons.every((w) => /^(Sign out|Apply)/.test(w)),
        `${url}: only sign-out and filter buttons, not ${buttons.join(' | ')}`,
      );
      for (const l of controlsOf(res.body).links) links.add(l);
    }
    // the nav offers no page the viewer may not open
    const dash = (await b.get('/dashboard')).body;
    for (const hidden of ['/dashboard/webhooks', '/dashboard/branding', '/dashboard/members'])
      assert.ok(!dash.includes(`href="${hidden}"`), `no link to ${hidden}`);
    assert.ok(links.size > 10, `${links.size} links`);
    for (const l of links) {
      const res = await b.get(l);
      assert.notEqual(res.statusCode, 403, `${l} answers 403 to the viewer who was offered it`);
      assert.ok(res.statusCode < 500, `${l}: ${res.statusCode}`);
    }
  });

  test("a member's pages hold the write forms the viewer's lack", async () => {
    const b = new Browser(t.app);
    assert.equal((await b.login(keys.member)).statusCode, 303);
    const forms = async (url: string) => writeForms((await b.get(url)).body);
    assert.ok((await forms('/dashboard')).includes('/dashboard/reports'), 'the audit form');
    assert.ok((await forms('/dashboard')).includes(`/dashboard/reports/${reportId}/rerun`), 're-run');
    assert.ok((await forms('/dashboard')).includes(`/dashboard/reports/${reportId}/delete`), 'delete');
    assert.ok((await forms('/dashboard')).includes(`/dashboard/reports/${reportId}/privacy`), 'privacy');
    const p = await forms(`/dashboard/projects/${project}`);
    for (const a of ['crawl', 'settings', 'ignore-rules'])
      assert.ok(p.includes(`/dashboard/projects/${project}/${a}`), `${a} on the project page`);
    assert.ok((await forms(`/reports/${reportId}`)).includes(`/reports/${reportId}/schedule`), 'schedule');
    assert.ok((await forms('/dashboard/batches')).includes('/dashboard/batches'), 'start a batch');
    assert.ok((await forms('/dashboard/keys')).includes('/dashboard/keys'), 'create a key');
    const nav = (await b.get('/dashboard')).body;
    assert.ok(!nav.includes('href="/dashboard/members"') && !nav.includes('href="/dashboard/webhooks"'));
    // the admin sees the admin's links
    const a = new Browser(t.app);
    await a.login(keys.admin);
    const adminNav = (await a.get('/dashboard')).body;
    for (const l of ['/dashboard/members', '/dashboard/webhooks', '/dashboard/branding'])
      assert.ok(adminNav.includes(`href="${l}"`), `admin: ${l}`);
  });

  test('a 403 from a permission rule names the role needed ("Not allowed", never "Form expired")', async () => {
    const b = new Browser(t.app);
    await b.login(keys.viewer);
    const token = await b.csrf('/logout');
    const res = await b.post('/dashboard/reports', { _csrf: token, url: `http://${project}/x` });
    assert.equal(res.statusCode, 403);
    assert.match(res.body, /Not allowed/);
    assert.match(res.body, /needs the member role or higher/);
    assert.doesNotMatch(res.body, /Form expired/);
    const members = await b.get('/dashboard/members');
    assert.equal(members.statusCode, 403);
    assert.match(members.body, /needs the admin role or higher/);
    // a refused CSRF token is still "Form expired"
    const csrf = await b.post('/logout', { _csrf: 'nope' });
    assert.equal(csrf.statusCode, 403);
    assert.match(csrf.body, /Form expired/);
  });

  test("a viewer limited to a project: another project's comparison is the not-found page", async () => {
    const key = (await t.services.keys.create('client-bob', { org: 'agency' })).key;
    const b = new Browser(t.app);
    assert.equal((await b.login(key)).statusCode, 303);
    assert.equal((await b.get(`/dashboard/projects/${project}/compare`)).statusCode, 200);
    assert.equal((await b.get('/dashboard/projects/client-z.canned.test/compare')).statusCode, 404);
    const nav = controlsOf((await b.get('/dashboard')).body).links;
    assert.ok(
      !nav.includes('/dashboard/batches') && !nav.includes('/dashboard/schedules'),
      'no every-project pages',
    );
  });

  test('members page: list with roles and a limited viewer’s projects', async () => {
    const b = new Browser(t.app);
    await b.login(keys.admin);
    const res = await b.get('/dashboard/members');
    assert.equal(res.statusCode, 200);
    assert.match(res.body, new RegExp(`id="member-${ids.client}" data-role="viewer"`));
    assert.match(
      res.body,
      new RegExp(`only <span class="member-projects">${project.replace(/\./g, '\\.')}</span>`),
    );
    for (const role of ['owner', 'admin', 'member', 'viewer'] as const)
      assert.match(res.body, new RegExp(`id="member-${ids[role]}" data-role="${role}"`));
    // an admin gets no form for the owner's row, and cannot make an owner
    const forms = writeForms(res.body);
    assert.ok(!forms.includes(`/dashboard/members/${ids.owner}`), 'no form on the owner');
    assert.ok(forms.includes(`/dashboard/members/${ids.member}`));
    assert.ok(forms.includes(`/dashboard/members/${ids.member}/remove`));
    assert.doesNotMatch(res.body, /<option value="owner"/);
  });

  test('members page: change a role and projects, remove; the rules as a clear message', async () => {
    const admin = new Browser(t.app);
    await admin.login(keys.admin);
    let token = await admin.csrf('/dashboard/members');
    // without a token: "Form expired"
    const noToken = await admin.post(`/dashboard/members/${ids.client}`, { role: 'viewer', projects: '' });
    assert.equal(noToken.statusCode, 403);
    assert.match(noToken.body, /Form expired/);
    // the client sees a second project
    let res = await admin.post(`/dashboard/members/${ids.client}`, {
      _csrf: token,
      role: 'viewer',
      projects: `${project}, client-b.canned.test`,
    });
    assert.equal(res.statusCode, 303, res.body);
    assert.equal(res.headers.location, '/dashboard/members?done=changed');
    let list = await t.services.organizations.membersOf('agency');
    assert.deepEqual(list.find((m) => m.userId === ids.client)?.projects, [project, 'client-b.canned.test']);
    // a member cannot be limited: 422 naming why, on the page
    res = await admin.post(`/dashboard/members/${ids.client}`, {
      _csrf: token,
      role: 'member',
      projects: project,
    });
    assert.equal(res.statusCode, 422);
    assert.match(res.body, /role="alert">Not changed: Only a viewer can be limited to projects/);
    // a role that does not exist: 422 naming the roles
    res = await admin.post(`/dashboard/members/${ids.client}`, { _csrf: token, role: 'boss', projects: '' });
    assert.equal(res.statusCode, 422);
    assert.match(res.body, /The role must be one of: viewer, member, admin, owner/);
    // an admin never touches an owner
    res = await admin.post(`/dashboard/members/${ids.owner}/remove`, { _csrf: token });
    assert.equal(res.statusCode, 403);
    assert.match(res.body, /Not changed: Forbidden: this needs the owner role/);
    res = await admin.post(`/dashboard/members/${ids.member}`, { _csrf: token, role: 'owner', projects: '' });
    assert.equal(res.statusCode, 403);
    // the owner: the last owner stays one (demoting or removing themselves), clearly
    const own = new Browser(t.app);
    await own.login(keys.owner);
    token = await own.csrf('/dashboard/members');
    res = await own.post(`/dashboard/members/${ids.owner}`, { _csrf: token, role: 'admin', projects: '' });
    assert.equal(res.statusCode, 422);
    assert.match(res.body, /The last owner of the organization stays an owner/);
    res = await own.post(`/dashboard/members/${ids.owner}/remove`, { _csrf: token });
    assert.equal(res.statusCode, 422);
    assert.match(res.body, /The last owner of the organization cannot leave it/);
    // the owner makes the admin an owner, then removes the member
    res = await own.post(`/dashboard/members/${ids.admin}`, { _csrf: token, role: 'owner', projects: '' });
    assert.equal(res.statusCode, 303, res.body);
    res = await own.post(`/dashboard/members/${ids.member}/remove`, { _csrf: token });
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, '/dashboard/members?done=removed');
    list = await t.services.organizations.membersOf('agency');
    assert.equal(list.find((m) => m.userId === ids.admin)?.role, 'owner');
    assert.equal(
      list.find((m) => m.userId === ids.member),
      undefined,
    );
    // the removed member's key no longer signs in
    const gone = await t.request({
      url: '/api/v1/account',
      headers: { authorization: `Bearer ${keys.member}` },
    });
    assert.equal(gone.statusCode, 401);
    // another organisation's person (or nobody) is the not-found page
    const other = await buildUser(t.services, 'other-org');
    res = await own.post(`/dashboard/members/${other.id}/remove`, { _csrf: token });
    assert.equal(res.statusCode, 404);
  });

  test("the project page's branding form (admins): saved, a 422 beside its field, cleared; others see none", async () => {
    const admin = new Browser(t.app);
    await admin.login(keys.admin);
    const path = `/dashboard/projects/${project}`;
    let page = await admin.get(path);
    assert.ok(writeForms(page.body).includes(`${path}/branding`), 'the form for an admin');
    const token = await admin.csrf(path);
    let res = await admin.post(`${path}/branding`, {
      _csrf: token,
      prepared_for: 'Client A Ltd',
      accent_color: 'teal',
    });
    assert.equal(res.statusCode, 422);
    assert.match(
      res.body,
      /id="pb-accent_color-error">Enter the accent colour as # and six hexadecimal digits/,
    );
    assert.match(res.body, /value="Client A Ltd"/, 'the form refilled');
    res = await admin.post(`${path}/branding`, {
      _csrf: token,
      prepared_for: 'Client A Ltd',
      accent_color: '#0f766e',
    });
    assert.equal(res.statusCode, 303, res.body);
    assert.equal(res.headers.location, `${path}?done=project_branding_saved#branding`);
    assert.equal((await t.services.branding.getProject(ids.owner, project)).preparedFor, 'Client A Ltd');
    assert.equal((await t.services.branding.ofReport(reportId)).preparedFor, 'Client A Ltd');
    page = await admin.get(path);
    assert.ok(writeForms(page.body).includes(`${path}/branding/delete`));
    // a viewer (the member was removed above): no section, and the form refused naming the admin role
    const member = new Browser(t.app);
    await member.login(keys.viewer);
    page = await member.get(path);
    assert.ok(!page.body.includes('id="project-branding-title"'));
    res = await member.post(`${path}/branding`, { _csrf: await member.csrf(path), prepared_for: 'x' });
    assert.equal(res.statusCode, 403);
    assert.match(res.body, /needs the admin role or higher/);
    res = await admin.post(`${path}/branding/delete`, { _csrf: token });
    assert.equal(res.statusCode, 303);
    assert.equal((await t.services.branding.getProject(ids.owner, project)).preparedFor, null);
  });
});
