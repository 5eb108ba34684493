// Single sign-on with OpenID Connect (docs/teams.md "Single sign-on"), on SQLite and
// PostgreSQL, against a real OpenID provider on loopback (oidc-provider: test/helpers/
// oidc-provider.ts), never a mock: the app's pages through app.inject with a cookie jar (the
// browser), the provider's pages through fetch (the same browser at the provider). A full
// sign-in (PKCE S256, state, nonce), the person matched by verified email, an unverified email
// refused, automatic membership for a domain, sign-up modes, the second factor not asked, and
// refused: a wrong state, another browser's callback, a wrong nonce, another issuer's answer, a
// replayed callback; the session id changes; the provider unreachable is a 503 page.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createServer } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { Secret, TOTP } from 'otpauth';
import { configFromEnv, ConfigError, type OidcConfig } from '../../src/config.js';
import { hashPersonPassword } from '../../src/services/signin/signin.service.js';
import { buildTestApp, describeEachDialect, PUBLIC_URL, type TestApp } from '../helpers/app.js';
import { Browser } from '../helpers/browser.js';
import { dialects } from '../helpers/db.js';
import { startTestProvider, type TestProvider } from '../helpers/oidc-provider.js';

const CALLBACK = `${PUBLIC_URL}/login/sso/callback`;
const LIGHT = { N: 2 ** 14, r: 8, p: 1 };
const SECRET_KEY = 'cd'.repeat(32);
const ANNA_PASSWORD = 'anna-correct-horse-1';

const ACCOUNTS = {
  anna: { email: 'Anna@Agency.example', email_verified: true, name: 'Anna' },
  tina: { email: 'tina@agency.example', email_verified: true },
  newbie: { email: 'new.person@agency.example', email_verified: true, name: 'New Person' },
  bob: { email: 'bob@agency.example', email_verified: true },
  mallory: { email: 'mallory@agency.example', email_verified: false },
  stranger: { email: 'stranger@elsewhere.example', email_verified: true },
  opener: { email: 'opener@elsewhere.example', email_verified: true },
  dora: { email: 'dora@agency.example', email_verified: true },
};

const oidcConfig = (p: TestProvider, extra: Partial<OidcConfig> = {}): OidcConfig => ({
  issuer: p.issuer,
  clientId: p.clientId,
  clientSecret: p.clientSecret,
  scopes: 'openid email profile',
  name: 'Acme SSO',
  domains: [{ domain: 'agency.example', organization: 'Acme Agency', role: 'member' }],
  ...extra,
});

/** `/login/sso` in this browser: the provider's authorization URL it redirects to */
async function start(b: Browser, next = '/dashboard'): Promise<URL> {
  const res = await b.get(`/login/sso?next=${encodeURIComponent(next)}`);
  assert.equal(res.statusCode, 303, res.body);
  return new URL(String(res.headers.location));
}

/** the app's callback, as the browser follows the provider's redirect */
const callback = (b: Browser, back: URL) => b.get(`${back.pathname}${back.search}`);

describeEachDialect('single sign-on with OpenID Connect', (dialect) => {
  let t: TestApp;
  let provider: TestProvider;
  let other: TestProvider;
  let ip = 0;
  const browser = () => new Browser(t.app, `10.8.${dialect.name === 'sqlite' ? 1 : 2}.${++ip}`);

  /** a whole sign-in as `login`: start, the provider's pages, the callback */
  async function signIn(b: Browser, login: string, next = '/dashboard') {
    const back = await provider.signInAt((await start(b, next)).href, login);
    return callback(b, back);
  }

  const sessionCount = async () =>
    Number(
      (
        await t.database.db
          .selectFrom('sessions')
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  before(async () => {
    provider = await startTestProvider({ redirectUri: CALLBACK, accounts: ACCOUNTS });
    // a second provider on another port, with a client of the same id, secret and redirect URI
    other = await startTestProvider({
      redirectUri: CALLBACK,
      accounts: ACCOUNTS,
      clientSecret: provider.clientSecret,
      idTokenClaims: true,
    });
    t = await buildTestApp(dialect, {
      config: { oidc: oidcConfig(provider), passwordScrypt: LIGHT, secretKey: SECRET_KEY },
    });
    await t.services.users.create('root');
    await t.services.users.create('anna', {
      email: 'anna@agency.example',
      passwordHash: await hashPersonPassword(ANNA_PASSWORD, LIGHT),
    });
    await t.services.users.create('tina', { email: 'tina@agency.example' });
    await t.services.users.create('bob', { email: 'bob@agency.example' });
    await t.services.users.create('dora', { email: 'dora@agency.example' });
    await t.services.organizations.create('Acme Agency', 'root');
  });
  after(async () => {
    await t?.close();
    await provider?.close();
    await other?.close();
  });

  test('the sign-in page offers "Sign in with <name>"; /login/sso starts the code flow with PKCE S256, a state and a nonce', async () => {
    const b = browser();
    const page = await b.get('/login?next=%2Fdashboard%2Fprojects');
    assert.equal(page.statusCode, 200);
    assert.match(
      page.body,
      /<a class="button button--primary" id="sso" href="\/login\/sso\?next=%2Fdashboard%2Fprojects">Sign in with Acme SSO<\/a>/,
    );

    const url = await start(b);
    assert.equal(url.origin, provider.issuer);
    const q = url.searchParams;
    assert.equal(q.get('response_type'), 'code');
    assert.equal(q.get('client_id'), provider.clientId);
    assert.equal(q.get('redirect_uri'), CALLBACK);
    assert.equal(q.get('scope'), 'openid email profile');
    assert.equal(q.get('code_challenge_method'), 'S256');
    assert.match(q.get('code_challenge') ?? '', /^[\w-]{43}$/);
    assert.match(q.get('state') ?? '', /^[\w-]{43}$/);
    assert.match(q.get('nonce') ?? '', /^[\w-]{43}$/);
    // the verifier and the nonce stay on the server: the browser holds the signed state only
    const cookie = b.cookies.get('pg_sso');
    assert.ok(cookie, 'the state cookie is set');
    assert.equal(cookie.path, '/login/sso');
    assert.ok(
      decodeURIComponent(cookie.value).startsWith(`${q.get('state')}.`),
      'the cookie holds the state, signed',
    );
    const hash = createHash('sha256').update(q.get('state')!).digest('hex');
    const row = await t.database.db
      .selectFrom('sso_logins')
      .selectAll()
      .where('id', '=', hash)
      .executeTakeFirstOrThrow();
    assert.ok(!JSON.stringify(url.href).includes(row.code_verifier), 'the verifier never leaves the server');
  });

  test('a full sign-in: the person matched by verified email (any case), a NEW session id, the old one ended, the identity linked', async () => {
    const b = browser();
    // anna was signed in with her password in this browser
    const csrf = await b.csrf('/login');
    const pw = await b.post('/login', {
      _csrf: csrf,
      email: 'anna@agency.example',
      password: ANNA_PASSWORD,
      next: '/dashboard',
    });
    assert.equal(pw.statusCode, 303);
    const before = b.cookies.get('pg_session')!.value;

    const res = await signIn(b, 'anna', '/dashboard/projects');
    assert.equal(res.statusCode, 303, res.body);
    assert.equal(res.headers.location, '/dashboard/projects');
    const after = b.cookies.get('pg_session')!.value;
    assert.notEqual(after, before, 'the session id changes at sign-in');
    assert.equal(b.cookies.has('pg_sso'), false, 'the state cookie is spent');
    const dash = await b.get('/dashboard');
    assert.equal(dash.statusCode, 200);
    assert.match(dash.body, /anna/);
    const old = await t.app.inject({ url: '/dashboard', headers: { cookie: `pg_session=${before}` } });
    assert.equal(old.statusCode, 303, 'the session the browser held before has ended');

    const anna = (await t.services.users.find('anna'))!;
    const ids = await t.database.db
      .selectFrom('identities')
      .selectAll()
      .where('user_id', '=', anna.id)
      .execute();
    assert.equal(ids.length, 1);
    assert.equal(ids[0]!.issuer, provider.issuer);
    assert.equal(ids[0]!.subject, 'anna');
    assert.equal(ids[0]!.email, 'Anna@Agency.example');

    // later sign-ins find her by the identity, even when the provider's email changes
    provider.accounts.set('anna', { ...ACCOUNTS.anna, email: 'anna.renamed@agency.example' });
    try {
      const again = await signIn(browser(), 'anna');
      assert.equal(again.statusCode, 303, again.body);
    } finally {
      provider.accounts.set('anna', ACCOUNTS.anna);
    }
    // the callback's code and state are not in the request log
    const lines = t.logs.filter((l) => l.includes('/login/sso/callback'));
    assert.ok(lines.length > 0);
    for (const l of lines) assert.match(JSON.parse(l).url, /^\/login\/sso\/callback\?\[redacted\]$/);
  });

  test('the second factor is not asked: the identity provider is it', async () => {
    const tina = (await t.services.users.find('tina'))!;
    const { secret } = await t.services.signin.totpBegin(tina.id);
    const code = new TOTP({
      secret: Secret.fromBase32(secret),
      digits: 6,
      period: 30,
      algorithm: 'SHA1',
    }).generate();
    await t.services.signin.totpConfirm(tina.id, code);
    const b = browser();
    const res = await signIn(b, 'tina');
    assert.equal(res.statusCode, 303, res.body);
    assert.equal(res.headers.location, '/dashboard');
    assert.equal((await b.get('/dashboard')).statusCode, 200);
  });

  test('an unverified email is refused: no person matched, no session', async () => {
    const b = browser();
    const sessions = await sessionCount();
    const res = await signIn(b, 'mallory');
    assert.equal(res.statusCode, 403);
    assert.match(res.body, /Email not verified/);
    assert.match(res.body, /does not vouch for your email address/);
    assert.equal(b.cookies.has('pg_session'), false);
    assert.equal(await sessionCount(), sessions);
    assert.equal(await t.services.users.find('mallory'), null);
  });

  test('automatic membership: a new person of the domain joins its organisation; an existing one at their first sign-in, and a removal sticks', async () => {
    const b = browser();
    const res = await signIn(b, 'newbie');
    assert.equal(res.statusCode, 303, res.body);
    const person = (await t.services.users.find('new.person'))!;
    assert.ok(person, 'the person is made, named from the email');
    const members = await t.services.organizations.membersOf('Acme Agency');
    assert.deepEqual(
      members.filter((m) => m.userId === person.id).map((m) => m.role),
      ['member'],
    );
    // only that organisation: no organisation of their own
    assert.deepEqual(
      (await t.services.signin.organizationsOf(person.id)).map((o) => o.name),
      ['Acme Agency'],
    );
    const dash = await b.get('/dashboard');
    assert.equal(dash.statusCode, 200);
    const entry = await t.database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'member.added')
      .where('target_id', '=', String(person.id))
      .executeTakeFirstOrThrow();
    assert.match(entry.changes, /single sign-on/);

    // bob existed (his own organisation): his first single sign-on adds the domain's membership
    const bob = (await t.services.users.find('bob'))!;
    assert.equal((await signIn(browser(), 'bob')).statusCode, 303);
    assert.deepEqual(
      (await t.services.signin.organizationsOf(bob.id)).map((o) => `${o.name}:${o.role}`),
      ['Acme Agency:member', 'bob:owner'],
    );
    // removed by an admin, he is not added back by his next sign-in
    await t.services.organizations.removeFrom('Acme Agency', 'bob');
    assert.equal((await signIn(browser(), 'bob')).statusCode, 303);
    assert.deepEqual(
      (await t.services.signin.organizationsOf(bob.id)).map((o) => o.name),
      ['bob'],
    );
  });

  test('nobody with the email: refused while sign-up is closed; made with an organisation of their own when open', async () => {
    const closed = await signIn(browser(), 'stranger');
    assert.equal(closed.statusCode, 403);
    assert.match(closed.body, /No account has the email stranger@elsewhere\.example/);
    assert.equal(await t.services.users.find('stranger'), null);

    await t.services.signin.setSignupMode('open');
    try {
      const b = browser();
      const res = await signIn(b, 'opener');
      assert.equal(res.statusCode, 303, res.body);
      const person = (await t.services.users.find('opener'))!;
      assert.deepEqual(
        (await t.services.signin.organizationsOf(person.id)).map((o) => `${o.name}:${o.role}`),
        ['opener:owner'],
      );
      assert.equal((await b.get('/dashboard')).statusCode, 200);
    } finally {
      await t.services.signin.setSignupMode('closed');
    }
  });

  test('a disabled person is refused', async () => {
    await t.services.admin.setDisabled('dora', true);
    const res = await signIn(browser(), 'dora');
    assert.equal(res.statusCode, 403);
    assert.match(res.body, /Account disabled/);
  });

  test('a callback with a wrong state is refused; so is a callback in another browser (login CSRF)', async () => {
    const b = browser();
    const back = await provider.signInAt((await start(b)).href, 'anna');
    const sessions = await sessionCount();
    const tampered = new URL(back);
    tampered.searchParams.set('state', 'x'.repeat(43));
    const wrong = await callback(b, tampered);
    assert.equal(wrong.statusCode, 400);
    assert.match(wrong.body, /not for the sign-in this browser started/);
    assert.equal(b.cookies.has('pg_session'), false);

    // an attacker's own callback (their state, their code) sent to a victim's browser
    const attacker = browser();
    const theirs = await provider.signInAt((await start(attacker)).href, 'anna');
    const victim = browser();
    const csrf = await callback(victim, theirs);
    assert.equal(csrf.statusCode, 400);
    assert.equal(victim.cookies.has('pg_session'), false);
    assert.equal(await sessionCount(), sessions);
  });

  test('a wrong nonce is refused (the ID token is not for this sign-in)', async () => {
    const b = browser();
    const url = await start(b);
    url.searchParams.set('nonce', 'a-nonce-this-sign-in-never-made-0123456789');
    const back = await provider.signInAt(url.href, 'anna');
    const res = await callback(b, back);
    assert.equal(res.statusCode, 400);
    assert.match(res.body, /unexpected ID Token &quot;nonce&quot; claim value/);
    assert.equal(b.cookies.has('pg_session'), false);
  });

  test("a wrong issuer is refused: another provider's answer, with its iss or without", async () => {
    for (const strip of [false, true]) {
      const b = browser();
      const url = await start(b);
      // the same request sent to the other provider (same client id, secret and redirect URI)
      const there = new URL(`${url.pathname}${url.search}`, other.issuer);
      const back = await other.signInAt(there.href, 'anna');
      assert.equal(back.searchParams.get('iss'), other.issuer);
      if (strip) back.searchParams.delete('iss');
      const res = await callback(b, back);
      assert.equal(res.statusCode, 400, res.body);
      assert.match(
        res.body,
        strip
          ? /response parameter &quot;iss&quot; \(issuer\) missing/
          : /unexpected &quot;iss&quot; \(issuer\) response parameter value/,
      );
      assert.equal(b.cookies.has('pg_session'), false);
    }
  });

  test('a replayed callback is refused, even with the state cookie put back', async () => {
    const b = browser();
    await start(b);
    const cookie = b.cookies.get('pg_sso')!;
    const back = await provider.signInAt((await start(b)).href, 'anna');
    const state = b.cookies.get('pg_sso')!;
    assert.notEqual(state.value, cookie.value, 'a new start, a new state');
    const ok = await callback(b, back);
    assert.equal(ok.statusCode, 303, ok.body);
    const session = b.cookies.get('pg_session')!.value;
    const sessions = await sessionCount();

    b.cookies.set('pg_sso', state);
    const replay = await callback(b, back);
    assert.equal(replay.statusCode, 400);
    assert.match(replay.body, /already used or has expired/);
    assert.equal(b.cookies.get('pg_session')!.value, session, 'no new session');
    assert.equal(await sessionCount(), sessions);
  });

  test('an error from the provider (the person cancels) is a page saying so', async () => {
    const b = browser();
    const url = await start(b);
    const back = new URL(CALLBACK);
    back.searchParams.set('error', 'access_denied');
    back.searchParams.set('error_description', 'End-User aborted interaction');
    back.searchParams.set('state', url.searchParams.get('state')!);
    back.searchParams.set('iss', provider.issuer);
    const res = await callback(b, back);
    assert.equal(res.statusCode, 403);
    assert.match(res.body, /access_denied/);
  });
});

describe(
  'single sign-on: the provider unreachable, found later; an ID token with the email; off',
  { skip: dialects[0]!.skip },
  () => {
    const SECRET = 'the-client-secret-of-the-late-provider-0123';
    let t: TestApp;
    let off: TestApp;
    let late: TestProvider | null = null;
    let port = 0;
    before(async () => {
      // a loopback port nobody listens on (yet)
      const probe = createServer();
      await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
      port = (probe.address() as { port: number }).port;
      await new Promise<void>((resolve) => probe.close(() => resolve()));
      t = await buildTestApp(dialects[0]!, {
        config: {
          oidc: {
            issuer: `http://127.0.0.1:${port}`,
            clientId: 'pagegrade',
            clientSecret: SECRET,
            scopes: 'openid email',
            name: 'Late SSO',
            domains: [{ domain: 'agency.example', organization: 'Acme Agency', role: 'viewer' }],
          },
        },
      });
      await t.services.users.create('root');
      await t.services.organizations.create('Acme Agency', 'root');
      off = await buildTestApp(dialects[0]!);
    });
    after(async () => {
      await t?.close();
      await off?.close();
      await late?.close();
    });

    test('an unreachable issuer is a clear 503 page, never a 500; discovered once it answers', async () => {
      const b = new Browser(t.app, '10.8.9.1');
      for (let i = 0; i < 2; i++) {
        const res = await b.get('/login/sso');
        assert.equal(res.statusCode, 503);
        assert.match(res.body, /The identity provider cannot be reached/);
        assert.match(res.body, /ECONNREFUSED/);
        assert.ok(res.body.includes(`http://127.0.0.1:${port}`));
        assert.equal(b.cookies.has('pg_sso'), false);
      }
      // a callback without a start is refused before the provider is asked
      const cb = await b.get('/login/sso/callback?code=abc&state=def');
      assert.equal(cb.statusCode, 400);

      // the provider comes up (its ID token carries the email: no userinfo request needed)
      late = await startTestProvider({
        redirectUri: CALLBACK,
        port,
        clientSecret: SECRET,
        idTokenClaims: true,
        accounts: { carla: { email: 'carla@agency.example', email_verified: true } },
      });
      const back = await late.signInAt((await start(b)).href, 'carla');
      const res = await callback(b, back);
      assert.equal(res.statusCode, 303, res.body);
      const carla = (await t.services.users.find('carla'))!;
      assert.deepEqual(
        (await t.services.signin.organizationsOf(carla.id)).map((o) => `${o.name}:${o.role}`),
        ['Acme Agency:viewer'],
      );
      assert.equal((await b.get('/dashboard')).statusCode, 200);
    });

    test('without PAGEGRADE_OIDC_ISSUER: no button, and /login/sso is not found', async () => {
      const b = new Browser(off.app, '10.8.9.2');
      assert.doesNotMatch((await b.get('/login')).body, /id="sso"|Sign in with Acme/);
      assert.equal((await b.get('/login/sso')).statusCode, 404);
      assert.equal((await b.get('/login/sso/callback?code=a&state=b')).statusCode, 404);
    });
  },
);

test('PAGEGRADE_OIDC_* are validated, naming the variable', () => {
  const base = {
    PAGEGRADE_OIDC_ISSUER: 'https://id.example.com/realms/agency',
    PAGEGRADE_OIDC_CLIENT_ID: 'pagegrade',
  };
  assert.equal(configFromEnv({}).oidc, null);
  const ok = configFromEnv({
    ...base,
    PAGEGRADE_OIDC_CLIENT_SECRET: 's3cret',
    PAGEGRADE_OIDC_NAME: 'Keycloak',
    PAGEGRADE_OIDC_DOMAINS: 'agency.com=Acme Agency:member, @client.com=Client Co:viewer,other.org=Other',
  }).oidc!;
  assert.equal(ok.issuer, base.PAGEGRADE_OIDC_ISSUER);
  assert.equal(ok.scopes, 'openid email profile');
  assert.equal(ok.name, 'Keycloak');
  assert.deepEqual(ok.domains, [
    { domain: 'agency.com', organization: 'Acme Agency', role: 'member' },
    { domain: 'client.com', organization: 'Client Co', role: 'viewer' },
    { domain: 'other.org', organization: 'Other', role: 'member' },
  ]);
  assert.equal(
    configFromEnv({ ...base, PAGEGRADE_OIDC_ISSUER: 'http://localhost:9000' }).oidc!.issuer,
    'http://localhost:9000',
  );
  const refused: [Record<string, string>, string][] = [
    [{ PAGEGRADE_OIDC_ISSUER: base.PAGEGRADE_OIDC_ISSUER }, 'PAGEGRADE_OIDC_CLIENT_ID'],
    [{ PAGEGRADE_OIDC_CLIENT_ID: 'x' }, 'PAGEGRADE_OIDC_ISSUER'],
    [{ ...base, PAGEGRADE_OIDC_ISSUER: 'http://id.example.com' }, 'PAGEGRADE_OIDC_ISSUER'],
    [{ ...base, PAGEGRADE_OIDC_ISSUER: 'not a url' }, 'PAGEGRADE_OIDC_ISSUER'],
    [{ ...base, PAGEGRADE_OIDC_SCOPES: 'profile email' }, 'PAGEGRADE_OIDC_SCOPES'],
    [{ ...base, PAGEGRADE_OIDC_SCOPES: 'openid profile' }, 'PAGEGRADE_OIDC_SCOPES'],
    [{ ...base, PAGEGRADE_OIDC_DOMAINS: 'agency.com=Acme:owner' }, 'PAGEGRADE_OIDC_DOMAINS'],
    [{ ...base, PAGEGRADE_OIDC_DOMAINS: 'agency.com' }, 'PAGEGRADE_OIDC_DOMAINS'],
    [{ ...base, PAGEGRADE_OIDC_DOMAINS: 'a.com=A,a.com=B' }, 'PAGEGRADE_OIDC_DOMAINS'],
  ];
  for (const [env, variable] of refused) {
    assert.throws(
      () => configFromEnv(env),
      (err: unknown) => err instanceof ConfigError && err.variable === variable,
      `${JSON.stringify(env)} → ${variable}`,
    );
  }
});
