// Single sign-on with OpenID Connect (docs/teams.md "Single sign-on"), with `openid-client`:
// the authorization code flow with PKCE (S256), a state and a nonce. A sign-in under way is a
// row of `sso_logins` (keyed by its state's SHA-256: the verifier and nonce never leave the
// server) used once, and the browser that started it keeps its state in a cookie (the pages'),
// so a callback is accepted only in that browser, only once. openid-client checks the state,
// the issuer (the discovery document's and the callback's `iss`, the ID token's), the nonce,
// the ID token's signature, audience and dates; this service then requires a verified email,
// finds the person (an identity linked before, else the email), or makes one when a domain's
// automatic membership or open sign-up allows, and opens a new session (no second factor: the
// provider is it).
//
// The provider is the operator's configuration (PAGEGRADE_OIDC_ISSUER): its requests do not go
// through the audited pages' address guard, and go to the configured issuer and the endpoints
// its discovery document names, nowhere else.
import { createHash, timingSafeEqual } from 'node:crypto';
import { createRequire } from 'node:module';
import type * as OpenIdClient from 'openid-client';
import type { OidcConfig } from '../../config.js';
import { insertSsoLogin, linkIdentity, useSsoLogin } from '../../store/sso.repository.js';
import type { ServiceContext } from '../shared/context.js';
import type { UsersServices } from '../accounts/types.js';
import type { OrganizationServices } from '../organizations/types.js';
import type { SignInServices } from '../signin/types.js';
import { createProvisioning } from './provision.js';
import type { SsoRefusal, SsoRefused, SsoServices } from './types.js';

/** A sign-in under way lasts 10 minutes at the provider. */
const LOGIN_TTL_MS = 10 * 60_000;
/** The provider's requests' time limit, seconds (discovery, token, userinfo). */
const PROVIDER_TIMEOUT_S = 10;

/** openid-client, loaded at the first single sign-on (an ES module package: required, as the CLI bundle wants) */
const loadClient = (): typeof OpenIdClient =>
  createRequire(import.meta.url)('openid-client') as typeof OpenIdClient;

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

const refused = (reason: SsoRefusal, detail: string): SsoRefused => ({ ok: false, reason, detail });

const sameText = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** an error of the network (no answer in time), as against an answer that failed a check */
const unreachable = (err: unknown) =>
  err instanceof Error &&
  (err.message === 'fetch failed' || err.name === 'AbortError' || err.name === 'TimeoutError');

/** what failed: openid-client's message, and the check's own (its cause) when it has one */
const why = (err: unknown) => {
  const e = err as Error;
  return e.cause instanceof Error && e.cause.message !== e.message
    ? `${e.message}: ${e.cause.message}`
    : e.message;
};

export function createSsoServices(
  ctx: Pick<ServiceContext, 'db' | 'config' | 'now'>,
  deps: {
    users: Pick<UsersServices, 'create'>;
    signin: Pick<SignInServices, 'forPerson' | 'signupMode'>;
    organizations: Pick<OrganizationServices, 'addMember'>;
  },
): SsoServices {
  const { db } = ctx;
  const oidc: OidcConfig | null = ctx.config.oidc ?? null;
  const publicUrl = (ctx.config.publicUrl ?? 'http://127.0.0.1:8080').replace(/\/+$/, '');
  const redirectUri = `${publicUrl}/login/sso/callback`;
  const provisioning = createProvisioning(ctx, deps);

  // the provider's configuration: discovered at the first use, kept (a failure is tried again next time)
  let discovered: Promise<OpenIdClient.Configuration> | null = null;
  const configuration = (o: OidcConfig): Promise<OpenIdClient.Configuration> => {
    discovered ??= (async () => {
      const client = loadClient();
      const issuer = new URL(o.issuer);
      const config = await client.discovery(
        issuer,
        o.clientId,
        undefined,
        o.clientSecret === null ? client.None() : client.ClientSecretBasic(o.clientSecret),
        {
          timeout: PROVIDER_TIMEOUT_S,
          // http only for a loopback issuer (the configuration refuses any other)
          ...(issuer.protocol === 'http:' ? { execute: [client.allowInsecureRequests] } : {}),
        },
      );
      config.timeout = PROVIDER_TIMEOUT_S;
      return config;
    })().catch((err: unknown) => {
      discovered = null;
      throw err;
    });
    return discovered;
  };

  const unavailable = (o: OidcConfig, err: unknown) =>
    refused(
      'unavailable',
      `The identity provider (${o.issuer}) could not be reached or did not answer as an OpenID provider: ${why(err)}`,
    );

  return {
    provider: () => (oidc ? { name: oidc.name } : null),

    async begin(next) {
      if (!oidc) return refused('unavailable', 'Single sign-on is not configured on this instance.');
      let config: OpenIdClient.Configuration;
      try {
        config = await configuration(oidc);
      } catch (err) {
        return unavailable(oidc, err);
      }
      const client = loadClient();
      const state = client.randomState();
      const nonce = client.randomNonce();
      const codeVerifier = client.randomPKCECodeVerifier();
      const now = ctx.now();
      await insertSsoLogin(db, {
        hash: sha256(state),
        codeVerifier,
        nonce,
        nextPath: next,
        now: now.toISOString(),
        expiresAt: new Date(now.getTime() + LOGIN_TTL_MS).toISOString(),
      });
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: oidc.scopes,
        response_type: 'code',
        code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        state,
        nonce,
      });
      return { ok: true, url: url.href, state };
    },

    async finish(browserState, query) {
      if (!oidc) return refused('unavailable', 'Single sign-on is not configured on this instance.');
      const params = new URLSearchParams(query);
      const state = params.get('state') ?? '';
      if (browserState === null || state === '' || !sameText(browserState, state))
        return refused(
          'state',
          'This answer of the identity provider is not for the sign-in this browser started.',
        );
      // used once, before anything else: a replayed callback stops here
      const login =
        state.length <= 200 ? await useSsoLogin(db, sha256(state), ctx.now().toISOString()) : null;
      if (!login) return refused('used', 'This sign-in was already used or has expired.');
      let config: OpenIdClient.Configuration;
      try {
        config = await configuration(oidc);
      } catch (err) {
        return unavailable(oidc, err);
      }
      const client = loadClient();
      let tokens: Awaited<ReturnType<typeof OpenIdClient.authorizationCodeGrant>>;
      try {
        tokens = await client.authorizationCodeGrant(config, new URL(`${redirectUri}?${params.toString()}`), {
          pkceCodeVerifier: login.codeVerifier,
          expectedState: state,
          expectedNonce: login.nonce,
          idTokenExpected: true,
        });
      } catch (err) {
        if (err instanceof client.AuthorizationResponseError)
          return refused(
            'denied',
            `The identity provider answered: ${err.error}${err.error_description ? ` (${err.error_description})` : ''}.`,
          );
        if (unreachable(err)) return unavailable(oidc, err);
        return refused('provider', `The identity provider's answer did not pass the checks: ${why(err)}.`);
      }
      const claims = tokens.claims();
      if (!claims) return refused('provider', 'The identity provider sent no ID token.');
      let email: unknown = claims.email;
      let verified: unknown = claims.email_verified;
      if (email === undefined || verified === undefined) {
        // not in the ID token (a provider may keep them for the userinfo endpoint)
        try {
          const info = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
          email = info.email;
          verified = info.email_verified;
        } catch (err) {
          if (unreachable(err)) return unavailable(oidc, err);
          return refused(
            'provider',
            `The identity provider's userinfo did not pass the checks: ${why(err)}.`,
          );
        }
      }
      if (typeof email !== 'string' || !(verified === true || verified === 'true'))
        return refused(
          'unverified',
          'The identity provider does not vouch for your email address (it is not verified there): verify it with the provider, or sign in with your password.',
        );
      const issuer = config.serverMetadata().issuer;
      const person = await provisioning.person(issuer, claims.sub, email);
      if (!person.ok) return person;
      const outcome = await deps.signin.forPerson(person.userId);
      if (!outcome.ok)
        return outcome.reason === 'no_organization'
          ? refused(
              'no_organization',
              'Your account is not a member of any organization: ask the instance administrator.',
            )
          : refused('disabled', 'Your account is disabled: ask the instance administrator.');
      await linkIdentity(db, {
        issuer,
        subject: claims.sub,
        userId: person.userId,
        email,
        now: ctx.now().toISOString(),
      });
      return { ...outcome, next: login.nextPath };
    },
  };
}
