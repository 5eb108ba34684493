// Signing in (docs/teams.md "Signing in"): passwords (scrypt, OWASP's parameters), the
// dashboard's server-side sessions (a random id in the cookie, its SHA-256 in `sessions`; a new
// id at every sign-in), the organisation switcher, reset links, sign-up and the second factor
// (totp.ts). Throttling is the pages' (src/pages/throttle.ts): this service only answers.
import { createHash, randomBytes } from 'node:crypto';
import { AppError, forbidden, notFound, validationError } from '../../errors.js';
import { withTransaction } from '../../store/database.js';
import { findMembership, listMemberships } from '../../store/memberships.repository.js';
import {
  findSession,
  insertSession,
  insertPasswordReset,
  peekPasswordReset,
  revokeUserSessions,
  updateSession,
  usePasswordReset,
} from '../../store/sessions.repository.js';
import { getSetting, putSetting } from '../../store/settings.repository.js';
import { findCredentials, findUserByEmail, findUserById, updateUser } from '../../store/users.repository.js';
import { recordInstanceChange } from '../shared/audit-log.js';
import type { ServiceContext } from '../shared/context.js';
import {
  hashPassword,
  needsRehash,
  PERSON_SCRYPT,
  verifyPassword,
  type ScryptParams,
} from '../shared/secrets.js';
import type { AuthServices, UsersServices } from '../accounts/types.js';
import { createSecondFactor } from './totp.js';
import {
  PASSWORD_MAX,
  PASSWORD_MIN,
  SIGNUP_MODES,
  type NewSession,
  type SessionViewer,
  type SignInServices,
  type SignupMode,
} from './types.js';

/** A session lasts 7 days (the cookie's Max-Age too); a pending second factor 10 minutes. */
export const SESSION_TTL_MS = 7 * 24 * 3600_000;
const PENDING_TTL_MS = 10 * 60_000;
/** A reset link lasts one hour. */
const RESET_TTL_MS = 3600_000;

const EMAIL_RE =
  /^[^\s@<>()[\]\\,;:"]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

const sha256 = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

/** An email as stored: trimmed, lower-case; null when it is no email address. */
export function normalEmail(email: string): string | null {
  const e = email.trim().toLowerCase();
  return e.length <= 254 && EMAIL_RE.test(e) ? e : null;
}

/** 422 `password` unless it is a password we accept. */
export function checkNewPassword(password: string, field = 'password'): void {
  if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX)
    throw validationError({
      [field]: [`The password must be ${PASSWORD_MIN} to ${PASSWORD_MAX} characters long.`],
    });
}

/** A password's hash with the people's parameters (scrypt N=2^17, r=8, p=1). */
export const hashPersonPassword = (password: string, params: ScryptParams = PERSON_SCRYPT): Promise<string> =>
  hashPassword(password, params);

export function createSignInServices(
  ctx: Pick<ServiceContext, 'db' | 'config' | 'now'>,
  accounts: { auth: AuthServices; users: UsersServices },
): SignInServices {
  const { db } = ctx;
  const iso = () => ctx.now().toISOString();
  const cost = ctx.config.passwordScrypt ?? PERSON_SCRYPT;
  const hashOf = (password: string) => hashPersonPassword(password, cost);
  // a hash to verify against when the email is unknown, so that the answer takes as long
  let decoy: Promise<string> | null = null;
  const publicUrl = (ctx.config.publicUrl ?? 'http://127.0.0.1:8080').replace(/\/+$/, '');

  async function open(
    userId: number,
    orgId: number | null,
    keyId: number | null,
    stage: 'active' | 'totp',
  ): Promise<NewSession> {
    const token = randomBytes(32).toString('base64url');
    const now = ctx.now();
    await insertSession(db, {
      hash: sha256(token),
      userId,
      orgId,
      keyId,
      stage,
      now: now.toISOString(),
      expiresAt: new Date(now.getTime() + (stage === 'totp' ? PENDING_TTL_MS : SESSION_TTL_MS)).toISOString(),
    });
    return { token, userId, stage };
  }

  /** a session row while it holds (not revoked, not expired, its person not disabled) */
  async function live(token: string) {
    if (typeof token !== 'string' || token.length < 20 || token.length > 100) return null;
    const hash = sha256(token);
    const row = await findSession(db, hash);
    if (!row || row.revokedAt !== null || row.userDisabledAt !== null) return null;
    if (Date.parse(row.expiresAt) <= ctx.now().getTime()) return null;
    return { ...row, hash };
  }

  const secondFactor = createSecondFactor(ctx);

  async function signupMode(): Promise<SignupMode> {
    const mode = await getSetting(db, 'signup_mode');
    return (SIGNUP_MODES as readonly string[]).includes(mode ?? '') ? (mode as SignupMode) : 'closed';
  }

  return {
    async withPassword(email, password) {
      const normal = normalEmail(email);
      const user = normal === null ? null : await findUserByEmail(db, normal);
      const creds = user ? await findCredentials(db, user.id) : null;
      if (!user || !creds?.passwordHash || password.length > PASSWORD_MAX) {
        decoy ??= hashOf(randomBytes(16).toString('hex'));
        await verifyPassword(password.slice(0, PASSWORD_MAX), await decoy);
        return { ok: false, reason: 'invalid' };
      }
      if (!(await verifyPassword(password, creds.passwordHash)) || user.disabledAt !== null)
        return { ok: false, reason: 'invalid' };
      if (needsRehash(creds.passwordHash, cost))
        await updateUser(db, user.id, { passwordHash: await hashOf(password) });
      const [first] = await listMemberships(db, user.id);
      if (!first) return { ok: false, reason: 'no_organization' };
      const session = await open(user.id, first.orgId, null, creds.totpEnabled ? 'totp' : 'active');
      return { ok: true, ...session };
    },

    async forPerson(userId) {
      const user = await findUserById(db, userId);
      if (!user || user.disabledAt !== null) return { ok: false, reason: 'invalid' };
      const [first] = await listMemberships(db, user.id);
      if (!first) return { ok: false, reason: 'no_organization' };
      // the identity provider was the second factor: no TOTP step
      return { ok: true, ...(await open(user.id, first.orgId, null, 'active')) };
    },

    async withKey(key) {
      const auth = await accounts.auth.authenticate(key).catch((err: unknown) => {
        if (err instanceof AppError && err.status === 401) return null;
        throw err;
      });
      if (!auth) return null;
      return open(auth.memberId, auth.orgId, auth.keyId, 'active');
    },

    async pending(token) {
      const row = await live(token);
      return row && row.stage === 'totp' ? { userId: row.userId } : null;
    },

    async secondFactor(pendingToken, code) {
      const row = await live(pendingToken);
      if (!row || row.stage !== 'totp') return null;
      if (!(await secondFactor.check(row.userId, code))) return null;
      // the pending id is never promoted: a new one (session fixation)
      await updateSession(db, row.hash, { revokedAt: iso() });
      return open(row.userId, row.orgId, null, 'active');
    },

    async resolve(token) {
      const row = await live(token);
      if (!row || row.stage !== 'active') return null;
      const user = await findUserById(db, row.userId);
      if (!user) return null;
      const person = {
        name: user.name,
        email: user.email,
        isAdmin: user.isAdmin,
        hasPassword: user.hasPassword,
        totpEnabled: user.totpEnabled,
      };
      if (row.keyId !== null) {
        // a key's session lives as long as its key (revoked, expired, its member gone: it ends)
        const auth = await accounts.auth.session(row.userId, row.keyId);
        return auth ? ({ ...auth, ...person, name: auth.name } satisfies SessionViewer) : null;
      }
      const m = row.orgId === null ? null : await findMembership(db, row.orgId, row.userId);
      if (!m) {
        // the membership is gone: this session ends
        await updateSession(db, row.hash, { revokedAt: iso() });
        return null;
      }
      return {
        orgId: m.orgId,
        memberId: row.userId,
        role: m.role,
        scopes: m.role === 'viewer' ? ['read'] : ['read', 'write'],
        projects: m.projects,
        keyId: null,
        ...person,
      };
    },

    async signOut(token) {
      if (typeof token !== 'string' || token.length > 100) return;
      await updateSession(db, sha256(token), { revokedAt: iso() });
    },

    async organizationsOf(userId) {
      const rows = await listMemberships(db, userId);
      return rows
        .map((m) => ({ id: m.orgId, name: m.orgName, role: m.role }))
        .sort((a, b) => a.name.localeCompare(b.name));
    },

    async switchOrganization(token, orgId) {
      const row = await live(token);
      if (!row || row.stage !== 'active') throw notFound('No such session.');
      if (row.keyId !== null)
        throw validationError({
          org: ["A session opened with an API key acts in the key's organization only."],
        });
      const m = Number.isSafeInteger(orgId) ? await findMembership(db, orgId, row.userId) : null;
      if (!m) throw notFound('No such organization.');
      await updateSession(db, row.hash, { orgId: m.orgId });
      return { id: m.orgId, name: m.orgName, role: m.role };
    },

    async changePassword(token, current, next, email = null) {
      const row = await live(token);
      if (!row || row.stage !== 'active') throw notFound('No such session.');
      const creds = await findCredentials(db, row.userId);
      const user = await findUserById(db, row.userId);
      if (!creds || !user) throw notFound('No such user.');
      let newEmail: string | null = null;
      if (user.email === null) {
        newEmail = normalEmail(email ?? '');
        if (newEmail === null)
          throw validationError({ email: ['The email must be an email address (name@example.com).'] });
        if (await findUserByEmail(db, newEmail))
          throw validationError({ email: ['This email belongs to another account.'] });
      }
      if (creds.passwordHash !== null) {
        if (
          current === null ||
          current.length > PASSWORD_MAX ||
          !(await verifyPassword(current, creds.passwordHash))
        )
          throw validationError({ current: ['The current password is not right.'] });
      }
      checkNewPassword(next);
      await updateUser(db, row.userId, {
        passwordHash: await hashOf(next),
        ...(newEmail !== null ? { email: newEmail } : {}),
      });
      // every other session of the person ends; this one goes on
      await revokeUserSessions(db, row.userId, iso(), row.hash);
    },

    async resetLink(email, options = {}) {
      const normal = normalEmail(email);
      const user = normal === null ? null : await findUserByEmail(db, normal);
      if (!user) throw notFound(`No person has the email ${email}.`);
      const token = randomBytes(32).toString('base64url');
      const now = ctx.now();
      const expiresAt = new Date(now.getTime() + RESET_TTL_MS).toISOString();
      await withTransaction(db, async (trx) => {
        await insertPasswordReset(trx, {
          hash: sha256(token),
          userId: user.id,
          now: now.toISOString(),
          expiresAt,
        });
        if (options.byAdmin)
          await recordInstanceChange(
            trx,
            now,
            { action: 'user.reset_link_issued', target: { type: 'user', id: user.id }, changes: { name: user.name } },
            (await listMemberships(trx, user.id)).map((m) => m.orgId),
          );
      });
      return { url: `${publicUrl}/reset-password/${token}`, expiresAt, userId: user.id };
    },

    async checkReset(token) {
      if (typeof token !== 'string' || token.length < 20 || token.length > 100) return null;
      return peekPasswordReset(db, sha256(token), iso());
    },

    async resetPassword(token, password) {
      checkNewPassword(password);
      if (typeof token !== 'string' || token.length < 20 || token.length > 100) return false;
      const hash = await hashOf(password);
      return withTransaction(db, async (trx) => {
        const userId = await usePasswordReset(trx, sha256(token), iso());
        if (userId === null) return false;
        await updateUser(trx, userId, { passwordHash: hash });
        // whoever held a session (perhaps the one who stole the password) is signed out
        await revokeUserSessions(trx, userId, iso());
        return true;
      });
    },

    signupMode,

    async setSignupMode(mode) {
      if (!(SIGNUP_MODES as readonly string[]).includes(mode))
        throw validationError({ mode: [`The sign-up mode must be one of: ${SIGNUP_MODES.join(', ')}.`] });
      const before = await signupMode();
      await withTransaction(db, async (trx) => {
        await putSetting(trx, 'signup_mode', mode);
        if (before !== mode)
          await recordInstanceChange(trx, ctx.now(), {
            action: 'instance.signup_mode_changed',
            target: { type: 'instance', id: null },
            changes: { signup_mode: { from: before, to: mode } },
          });
      });
      return mode as SignupMode;
    },

    async signUp(input) {
      if ((await signupMode()) !== 'open')
        throw forbidden('Sign-up is closed on this instance: ask its administrator for an invitation.');
      const errors: Record<string, string[]> = {};
      const email = normalEmail(input.email);
      if (email === null) errors.email = ['The email must be an email address (name@example.com).'];
      else if (await findUserByEmail(db, email))
        errors.email = ['This email already has an account: sign in.'];
      try {
        checkNewPassword(input.password);
      } catch (err) {
        Object.assign(errors, (err as AppError).fields);
      }
      if (Object.keys(errors).length > 0) throw validationError(errors);
      // the name is checked by users.create (422 `name`)
      const { user, organization } = await accounts.users.create(input.name.trim(), {
        email,
        passwordHash: await hashOf(input.password),
      });
      return open(user.id, organization.id, null, 'active');
    },

    totpBegin: (userId) => secondFactor.begin(userId),
    totpConfirm: (userId, code) => secondFactor.confirm(userId, code),
    totpDisable: (userId, alsoInTransaction) => secondFactor.disable(userId, alsoInTransaction),
  };
}
