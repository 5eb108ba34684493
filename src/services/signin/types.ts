// The signing-in feature's types (docs/teams.md "Signing in"): people's passwords, the
// dashboard's server-side sessions, the organisation switcher, password reset links, the TOTP
// second factor with recovery codes, and the instance's sign-up mode.
import type { Actor, Role } from '../accounts/types.js';
import type { Db } from '../../store/database.js';

/** `closed` (the default) and `invite`: nobody signs up, people join by invitation; `open`: anyone. */
export const SIGNUP_MODES = ['closed', 'invite', 'open'] as const;
export type SignupMode = (typeof SIGNUP_MODES)[number];

/** A password's length limits (characters): OWASP's minimum of 8 without MFA, and a cap on hashing work. */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 256;

/** Who a dashboard session acts as, resolved at each request. */
export interface SessionViewer extends Actor {
  memberId: number;
  /** a session opened with an API key (it acts as the key); null: a person's (password) session */
  keyId: number | null;
  name: string;
  email: string | null;
  /** the instance admin */
  isAdmin: boolean;
  /** false: the person has no password yet (the dashboard offers to set one) */
  hasPassword: boolean;
  totpEnabled: boolean;
}

/** A new session: `token` goes in the cookie (never stored: its SHA-256 is). */
export interface NewSession {
  token: string;
  userId: number;
  /** `totp`: the password was right; the second factor is still to come (the session does nothing yet) */
  stage: 'active' | 'totp';
}

/** What a sign-in attempt gave: a session, or why not (the page says only "not valid" for `invalid`). */
export type SignInOutcome =
  ({ ok: true } & NewSession) | { ok: false; reason: 'invalid' | 'no_organization' };

/** One of a person's organisations (the switcher). */
export interface OrgChoice {
  id: number;
  name: string;
  role: Role;
}

export interface SignInServices {
  /** email (any case) and password; a new session each time (never an old id) */
  withPassword(email: string, password: string): Promise<SignInOutcome>;
  /**
   * A new active session for a person another sign-in vouched for (single sign-on: no password,
   * no second factor) in their first organisation; `invalid` when disabled or unknown.
   */
  forPerson(userId: number): Promise<SignInOutcome>;
  /** an API key (scripts' sessions): a new session acting as that key, or null */
  withKey(key: string): Promise<NewSession | null>;
  /**
   * The second step of a `totp` session: a current TOTP code or an unused recovery code. On
   * success the pending session ends and a new active one is returned; null when wrong.
   */
  secondFactor(pendingToken: string, code: string): Promise<NewSession | null>;
  /** the person a `totp`-stage session waits for, or null */
  pending(token: string): Promise<{ userId: number } | null>;
  /** the session's viewer, or null (unknown, ended, expired, the person disabled, the membership gone) */
  resolve(token: string): Promise<SessionViewer | null>;
  signOut(token: string): Promise<void>;
  /** the person's organisations, by name */
  organizationsOf(userId: number): Promise<OrgChoice[]>;
  /** the session acts in `orgId` from now on (404 when the person is not a member; 422 for a key's session) */
  switchOrganization(token: string, orgId: number): Promise<OrgChoice>;
  /**
   * Sets a person's password. `current` is required when they have one (422 `current`); 422
   * `password` when too short or long. Every other session of the person ends. `email` sets the
   * person's email when they have none yet (422 `email` when invalid or taken).
   */
  changePassword(token: string, current: string | null, next: string, email?: string | null): Promise<void>;

  /**
   * a password reset link (1 h, single use) for the person with this email; 404 unknown.
   * `byAdmin` (`pagegrade users reset-link`): recorded in the instance log and the audit log of
   * the person's organisations (never the link)
   */
  resetLink(email: string, options?: { byAdmin?: boolean }): Promise<{ url: string; expiresAt: string; userId: number }>;
  /** the state of a reset link (the form): ok, used, expired, or null (unknown) */
  checkReset(token: string): Promise<'ok' | 'used' | 'expired' | null>;
  /** sets the password through a reset link (used once); false when the link is not ok; every session ends */
  resetPassword(token: string, password: string): Promise<boolean>;

  signupMode(): Promise<SignupMode>;
  /** 422 `mode` naming the allowed values */
  setSignupMode(mode: string): Promise<SignupMode>;
  /**
   * Sign-up (`open` only; 403 otherwise): a person and an organisation of their own (owner),
   * signed in. 422 naming `email`, `name` or `password`.
   */
  signUp(input: { email: string; name: string; password: string }): Promise<NewSession>;

  /** a new TOTP secret for the person (not on until confirmed): the secret and its otpauth:// URI */
  totpBegin(userId: number): Promise<{ secret: string; uri: string }>;
  /** turns the second factor on with a current code: the 10 recovery codes, shown once; 422 `code` when wrong */
  totpConfirm(userId: number, code: string): Promise<string[]>;
  /**
   * turns the second factor off (the person's own, or the instance admin's reset);
   * `alsoInTransaction` writes in the same transaction (the admin's record of the reset)
   */
  totpDisable(userId: number, alsoInTransaction?: (trx: Db) => Promise<void>): Promise<void>;
}
