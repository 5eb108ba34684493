// A real OpenID provider on loopback for the single sign-on tests (docs/teams.md "Single
// sign-on"): `oidc-provider` (a certified OpenID provider) at http://127.0.0.1:<port>, with one
// confidential client whose redirect URI is the test app's callback, PKCE required, and an
// account store that answers each account's email and email_verified. Its sign-in page is ours
// (what an identity provider's is to the user): `/interaction/<uid>` takes `login` (the account
// id) and grants what the client asked for. `signInAt` drives it with fetch and a cookie jar,
// as a browser would, up to the redirect back to the app.
import { generateKeyPairSync } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export interface TestAccount {
  email: string;
  email_verified: boolean;
  name?: string;
}

export interface TestProvider {
  /** http://127.0.0.1:<port> */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** accounts by their id (the `login` typed on the provider's page); tests add more */
  accounts: Map<string, TestAccount>;
  /**
   * Follows an authorization URL at the provider as a browser: its sign-in page with `login`,
   * then back: the URL the provider redirects to (the app's callback with code, state, iss).
   */
  signInAt(authorizationUrl: string, login: string): Promise<URL>;
  close(): Promise<void>;
}

const body = (req: IncomingMessage): Promise<URLSearchParams> =>
  new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (text += c));
    req.on('end', () => resolve(new URLSearchParams(text)));
    req.on('error', reject);
  });

/** A cookie jar for fetch: one origin, names to values. */
class Jar {
  private readonly cookies = new Map<string, string>();
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
  take(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
}

export async function startTestProvider(opts: {
  /** the app's callback, e.g. http://pagegrade.test:8080/login/sso/callback */
  redirectUri: string;
  clientId?: string;
  clientSecret?: string;
  accounts?: Record<string, TestAccount>;
  /** the ID token carries email and email_verified too (default: only the userinfo endpoint, as the spec has it for the code flow) */
  idTokenClaims?: boolean;
  /** the loopback port (default: any free one) */
  port?: number;
}): Promise<TestProvider> {
  const accounts = new Map(Object.entries(opts.accounts ?? {}));
  const clientId = opts.clientId ?? 'pagegrade';
  const clientSecret = opts.clientSecret ?? 'a-client-secret-of-the-test-provider-0123456789';
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | null = null;
  const server: Server = createServer((req, res) => handler!(req, res));
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const signingKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [opts.redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    // PKCE for every client, confidential ones too
    pkce: { required: () => true },
    jwks: { keys: [{ ...signingKey, kid: 'test-key', use: 'sig', alg: 'RS256' }] },
    cookies: { keys: ['test-provider-cookie-key-0123456789'] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    conformIdTokenClaims: !opts.idTokenClaims,
    features: { devInteractions: { enabled: false } },
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      Grant: 600,
      IdToken: 600,
      Interaction: 600,
      Session: 600,
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    async findAccount(_ctx, sub) {
      const account = accounts.get(sub);
      if (!account) return undefined;
      return {
        accountId: sub,
        claims: () => ({ sub, ...account }),
      };
    },
  });
  const callback = provider.callback();

  handler = (req, res) => {
    const m = /^\/interaction\/([\w-]+)$/.exec(req.url ?? '');
    if (!m) {
      callback(req, res);
      return;
    }
    void (async () => {
      try {
        const details = await provider.interactionDetails(req, res);
        if (req.method === 'GET') {
          res.writeHead(200, { 'content-type': 'text/html' });
          res.end(`<form method="post"><input name="login"><button>Sign in</button></form>`);
          return;
        }
        const login = (await body(req)).get('login') ?? '';
        if (!accounts.has(login)) {
          res.writeHead(401, { 'content-type': 'text/plain' });
          res.end('no such account');
          return;
        }
        // the user consents to what the client asked for
        const grant = new provider.Grant({ accountId: login, clientId: String(details.params.client_id) });
        grant.addOIDCScope(String(details.params.scope));
        const grantId = await grant.save();
        await provider.interactionFinished(
          req,
          res,
          { login: { accountId: login }, consent: { grantId } },
          { mergeWithLastSubmission: false },
        );
      } catch (err) {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(String(err));
      }
    })();
  };

  return {
    issuer,
    clientId,
    clientSecret,
    accounts,
    async signInAt(authorizationUrl, login) {
      const jar = new Jar();
      let url = new URL(authorizationUrl);
      let method: 'GET' | 'POST' = 'GET';
      for (let hop = 0; hop < 10; hop++) {
        if (url.origin !== issuer) return url;
        const res = await fetch(url, {
          method,
          redirect: 'manual',
          headers: {
            cookie: jar.header(),
            ...(method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
          },
          ...(method === 'POST' ? { body: new URLSearchParams({ login }).toString() } : {}),
        });
        jar.take(res);
        const location = res.headers.get('location');
        if (res.status >= 300 && res.status < 400 && location) {
          url = new URL(location, url);
          method = 'GET';
          await res.arrayBuffer();
          continue;
        }
        const text = await res.text();
        if (res.status === 200 && url.pathname.startsWith('/interaction/')) {
          method = 'POST';
          continue;
        }
        throw new Error(`the provider answered ${res.status} at ${url.pathname}: ${text.slice(0, 300)}`);
      }
      throw new Error('too many redirects at the provider');
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
