// Users, API keys, authentication and settings.
import { AppError, notFound, validationError } from '../errors.js';
import { withTransaction } from '../store/database.js';
import {
  findKeyByHash,
  findKeyById,
  insertKey,
  listKeys,
  revokeKey,
  touchKey,
} from '../store/keys.repository.js';
import { ensureSetting } from '../store/settings.repository.js';
import {
  findUserById,
  findUserByName,
  insertUser,
  listUsers,
  type UserRow,
} from '../store/users.repository.js';
import type { ServiceContext } from './context.js';
import { generateApiKey, hashApiKey, keyDisplayPrefix, randomSecret, sameHash } from './secrets.js';
import type { ApiKeyInfo, IssuedKey, Services, User } from './types.js';

/** last_used_at is written at most this often per key */
const TOUCH_INTERVAL_MS = 60_000;
const NAME_RE = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;

/** Accounts need only the database, the configuration and the clock (the CLI's account commands use this alone). */
export function createAccountServices(
  ctx: Pick<ServiceContext, 'db' | 'config' | 'now'>,
): Pick<Services, 'auth' | 'users' | 'keys' | 'settings'> {
  const { db, config } = ctx;
  const iso = () => ctx.now().toISOString();

  async function findUser(nameOrId: string | number): Promise<UserRow | null> {
    if (typeof nameOrId === 'number') return findUserById(db, nameOrId);
    const byName = await findUserByName(db, nameOrId);
    if (byName) return byName;
    return /^\d{1,10}$/.test(nameOrId) ? findUserById(db, Number(nameOrId)) : null;
  }

  async function requireUser(nameOrId: string | number): Promise<UserRow> {
    const user = await findUser(nameOrId);
    if (!user) throw notFound(`No such user: ${nameOrId}.`);
    return user;
  }

  async function issueKey(
    trx: typeof db,
    userId: number,
    createdAt: string,
    secret?: string,
  ): Promise<{ id: number; key: string }> {
    const key = secret ?? generateApiKey();
    const id = await insertKey(trx, {
      userId,
      prefix: keyDisplayPrefix(key),
      hash: hashApiKey(key),
      createdAt,
    });
    return { id, key };
  }

  async function keyInfo(id: number): Promise<ApiKeyInfo> {
    const info = await findKeyById(db, id);
    if (!info) throw notFound(`No such key: ${id}.`);
    return info;
  }

  let sessionSecret: string | null = config.sessionSecret;

  return {
    auth: {
      async authenticate(token: string) {
        if (!token || token.length > 512) return null;
        const hash = hashApiKey(token);
        const row = await findKeyByHash(db, hash);
        // the row was found by its hash; comparing again in constant time keeps the decision
        // itself free of early-exit comparisons
        if (!row || !sameHash(row.hash, hash) || row.revokedAt !== null) return null;
        const now = ctx.now();
        if (row.lastUsedAt === null || Date.parse(row.lastUsedAt) <= now.getTime() - TOUCH_INTERVAL_MS) {
          const before = new Date(now.getTime() - TOUCH_INTERVAL_MS).toISOString();
          // bookkeeping only: a busy database must not fail the request
          await touchKey(db, row.id, now.toISOString(), before).catch(() => {});
        }
        return { userId: row.userId, keyId: row.id };
      },

      async session(userId: number, keyId: number) {
        // a session lives as long as the key it was opened with: revoked or gone, it ends
        const key = await findKeyById(db, keyId);
        if (!key || key.userId !== userId || key.revokedAt !== null) return null;
        return { userId, keyId, name: key.userName };
      },
    },

    users: {
      async create(name: string, options: { key?: string | undefined } = {}) {
        if (!NAME_RE.test(name) || /^\d+$/.test(name)) {
          throw validationError({
            name: [
              'The name must be 1 to 64 letters, digits, ".", "_", "@" or "-", start with a letter or digit, and not be only digits.',
            ],
          });
        }
        if (options.key !== undefined && options.key.length < 24) {
          throw validationError({ key: ['A fixed key must be at least 24 characters.'] });
        }
        if (await findUserByName(db, name))
          throw validationError({ name: [`The name "${name}" is already taken.`] });
        try {
          return await withTransaction(db, async (trx) => {
            const now = iso();
            const user: User = await insertUser(trx, name, now);
            const { id, key } = await issueKey(trx, user.id, now, options.key);
            const info: ApiKeyInfo = {
              id,
              userId: user.id,
              userName: user.name,
              prefix: keyDisplayPrefix(key),
              createdAt: user.createdAt,
              lastUsedAt: null,
              revokedAt: null,
            };
            const issued: IssuedKey = { info, key };
            return { user, key: issued };
          });
        } catch (err) {
          if (err instanceof AppError) throw err;
          // lost a race on the unique name (or the fixed key already exists)
          if (await findUserByName(db, name))
            throw validationError({ name: [`The name "${name}" is already taken.`] });
          throw err;
        }
      },
      find: findUser,
      get: (id: number) => findUserById(db, id),
      list: () => listUsers(db),
    },

    keys: {
      async create(user: string | number) {
        const owner = await requireUser(user);
        const { id, key } = await issueKey(db, owner.id, iso());
        return { info: await keyInfo(id), key };
      },
      async list(user?: string | number) {
        if (user === undefined) return listKeys(db);
        return listKeys(db, (await requireUser(user)).id);
      },
      async revoke(keyId: number) {
        if (!(await revokeKey(db, keyId, iso()))) throw notFound(`No such key: ${keyId}.`);
        return keyInfo(keyId);
      },
    },

    settings: {
      async sessionSecret() {
        sessionSecret ??= await ensureSetting(db, 'session_secret', randomSecret(32));
        return sessionSecret;
      },
    },
  };
}
