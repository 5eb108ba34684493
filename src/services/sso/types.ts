// The single sign-on feature's types (docs/teams.md "Single sign-on"): signing in through the
// instance's OpenID Connect provider (PAGEGRADE_OIDC_*), the authorization code flow with PKCE.
import type { NewSession } from '../signin/types.js';

/**
 * Why a single sign-on did not sign anyone in:
 * - `unavailable`: the identity provider could not be reached (or its discovery failed);
 * - `state`: the callback's state is not the one this browser started (another browser's, or made up);
 * - `used`: no sign-in under way has this state any more (used already: a replay; or expired);
 * - `provider`: the provider's answer failed a check (issuer, nonce, code, PKCE, signature…);
 * - `denied`: the provider answered with an error (the person cancelled, no access…);
 * - `unverified`: the provider vouches for no verified email;
 * - `no_account`: nobody has this email, no automatic membership covers its domain, sign-up is not open;
 * - `disabled`: the person is disabled; `no_organization`: they are a member of none.
 */
export type SsoRefusal =
  | 'unavailable'
  | 'state'
  | 'used'
  | 'provider'
  | 'denied'
  | 'unverified'
  | 'no_account'
  | 'disabled'
  | 'no_organization';

export interface SsoRefused {
  ok: false;
  reason: SsoRefusal;
  /** what the page may say about it (never a token or a secret) */
  detail: string;
}

export type SsoOutcome = ({ ok: true; next: string } & NewSession) | SsoRefused;

export interface SsoServices {
  /** the provider's button name ("Sign in with <name>"), or null when single sign-on is off */
  provider(): { name: string } | null;
  /**
   * Starts a sign-in: the provider's authorization URL (PKCE S256, state, nonce) and the state,
   * which the browser keeps in a cookie until the callback. The provider's configuration is
   * discovered at the first use and kept.
   */
  begin(next: string): Promise<{ ok: true; url: string; state: string } | SsoRefused>;
  /**
   * The callback: `browserState` is the state this browser started with (its cookie; null when
   * none), `query` the callback's query string. A new session on success (never the old one).
   */
  finish(browserState: string | null, query: string): Promise<SsoOutcome>;
}
