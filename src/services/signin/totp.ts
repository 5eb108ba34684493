// The TOTP second factor (RFC 6238 with `otpauth`: SHA-1, 6 digits, 30 s — what authenticator
// apps read), its secret encrypted at rest with PAGEGRADE_SECRET_KEY (src/services/shared/secrets.ts),
// and 10 single-use recovery codes stored as SHA-256 hashes. A code is accepted one step either
// side of now, and never twice (users.totp_last_step).
import { createHash, randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { validationError } from '../../errors.js';
import { withTransaction, type Db } from '../../store/database.js';
import { replaceRecoveryCodes, useRecoveryCode } from '../../store/sessions.repository.js';
import { claimTotpStep, findCredentials, findUserById, updateUser } from '../../store/users.repository.js';
import type { ServiceContext } from '../shared/context.js';
import { decryptSecret, encryptSecret } from '../shared/secrets.js';

const PERIOD = 30;
const RECOVERY_CODES = 10;

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** A recovery code as typed: lower-case, without spaces or dashes. */
const normalCode = (code: string) => code.toLowerCase().replace(/[\s-]/g, '');

function totpOf(secret: string, label: string): TOTP {
  return new TOTP({
    issuer: 'Pagegrade',
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD,
    secret: Secret.fromBase32(secret),
  });
}

export function createSecondFactor(ctx: Pick<ServiceContext, 'db' | 'config' | 'now'>) {
  const { db } = ctx;
  const key = () => {
    const k = ctx.config.secretKey ?? null;
    if (k === null)
      throw validationError({
        code: [
          'A second factor needs PAGEGRADE_SECRET_KEY (its secret is stored encrypted): ask the instance administrator to set it.',
        ],
      });
    return k;
  };

  /** the step a 6-digit code is valid for now (±1 step), or null */
  function stepOf(secret: string, code: string): number | null {
    if (!/^\d{6}$/.test(code)) return null;
    const now = ctx.now().getTime();
    const delta = totpOf(secret, 'x').validate({ token: code, timestamp: now, window: 1 });
    return delta === null ? null : Math.floor(now / 1000 / PERIOD) + delta;
  }

  return {
    async begin(userId: number) {
      const user = await findUserById(db, userId);
      if (!user) throw validationError({ user: ['No such person.'] });
      const secret = new Secret({ size: 20 }).base32;
      // stored now, on only once a code confirms it (until then sign-in does not ask for it)
      await updateUser(db, userId, { totpSecret: encryptSecret(key(), secret), totpEnabledAt: null });
      return { secret, uri: totpOf(secret, user.email ?? user.name).toString() };
    },

    async confirm(userId: number, code: string): Promise<string[]> {
      const creds = await findCredentials(db, userId);
      if (!creds?.totpSecret)
        throw validationError({ code: ['Start the set-up first: no secret is waiting.'] });
      const step = stepOf(decryptSecret(key(), creds.totpSecret), code.trim());
      if (step === null || !(await claimTotpStep(db, userId, step)))
        throw validationError({ code: ['That code is not right: enter the 6 digits your app shows now.'] });
      const codes = Array.from({ length: RECOVERY_CODES }, () => {
        const c = randomBytes(8).toString('hex');
        return `${c.slice(0, 4)}-${c.slice(4, 8)}-${c.slice(8, 12)}-${c.slice(12)}`;
      });
      await withTransaction(db, async (trx) => {
        await replaceRecoveryCodes(
          trx,
          userId,
          codes.map((c) => sha256(normalCode(c))),
        );
        await updateUser(trx, userId, { totpEnabledAt: ctx.now().toISOString() });
      });
      return codes;
    },

    /** a current code (never one already used) or an unused recovery code */
    async check(userId: number, code: string): Promise<boolean> {
      const creds = await findCredentials(db, userId);
      if (!creds?.totpEnabled || !creds.totpSecret) return false;
      const given = code.trim();
      if (/^\d{6}$/.test(given)) {
        const step = stepOf(decryptSecret(key(), creds.totpSecret), given);
        return step !== null && (await claimTotpStep(db, userId, step));
      }
      const normal = normalCode(given);
      if (!/^[0-9a-f]{16}$/.test(normal)) return false;
      return useRecoveryCode(db, userId, sha256(normal), ctx.now().toISOString());
    },

    async disable(userId: number, alsoInTransaction?: (trx: Db) => Promise<void>) {
      await withTransaction(db, async (trx) => {
        await updateUser(trx, userId, { totpSecret: null, totpEnabledAt: null });
        await replaceRecoveryCodes(trx, userId, []);
        if (alsoInTransaction) await alsoInTransaction(trx);
      });
    },
  };
}
