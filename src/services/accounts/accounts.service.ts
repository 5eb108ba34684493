// Users, API keys, authentication and settings.
import { AppError, forbidden, notFound, unauthorized, validationError } from '../../errors.js';
import { actorOf, requireScope } from '../access/actor.js';
import { withTransaction } from '../../store/database.js';
import {
  findKeyAuthById,
  findKeyByHash,
  findKeyById,
  insertKey,
  type KeyAuthRow,
  listKeys,
  revokeKey,
  touchKey,
} from '../../store/keys.repository.js';
import { ensureSetting } from '../../store/settings.repository.js';
import {
  countUsers,
  findUserByEmail,
  findUserById,
  findUserByName,
  insertUser,
  listUsers,
  type UserRow,
} from '../../store/users.repository.js';
import { findOrgByName, insertOrg } from '../../store/organizations.repository.js';
import { findMembership, insertMembership, listMemberships } from '../../store/memberships.repository.js';
import type { ServiceContext } from '../shared/context.js';
import { projectLimit } from '../shared/project-limit.js';
import { recordChange, recordInstanceChange } from '../shared/audit-log.js';
import { findUserRef } from '../shared/lookup.js';
import { generateApiKey, hashApiKey, keyDisplayPrefix, randomSecret, sameHash } from '../shared/secrets.js';
import { getOrgCounters, findOrgById } from '../../store/organizations.repository.js';
import { findProject } from '../../store/projects.repository.js';
import {
  KEY_SCOPES,
  type ApiKeyInfo,
  type Actor,
  type AuthContext,
  type Principal,
  type IssuedKey,
  type KeyOptions,
  type KeyScope,
  type Role,
  type User,
} from './types.js';
import { type OwnerServices, type Services } from '../types.js';

/** last_used_at is written at most this often per key */
const TOUCH_INTERVAL_MS = 60_000;
const NAME_RE = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;

/** Accounts need only the database, the configuration and the clock (the CLI's account commands use this alone). */
export function createAccountServices(
  ctx: Pick<ServiceContext, 'db' | 'config' | 'now' | 'keyBus' | 'keyChanges'>,
): Pick<OwnerServices, 'auth' | 'users' | 'keys' | 'settings'> & Pick<Services, 'account'> {
  const { db, config } = ctx;
  const iso = () => ctx.now().toISOString();

  async function requireUser(nameOrId: string | number): Promise<UserRow> {
    const user = await findUserRef(db, nameOrId);
    if (!user) throw notFound(`No such user: ${nameOrId}.`);
    return user;
  }

  async function issueKey(
    trx: typeof db,
    member: { userId: number; orgId: number },
    createdAt: string,
    secret?: string,
    options: { scopes?: KeyScope[]; projects?: string[] | null; expiresAt?: string | null } = {},
  ): Promise<{ id: number; key: string }> {
    const key = secret ?? generateApiKey();
    const id = await insertKey(trx, {
      userId: member.userId,
      orgId: member.orgId,
      prefix: keyDisplayPrefix(key),
      hash: hashApiKey(key),
      createdAt,
      ...options,
    });
    return { id, key };
  }

  /** A new key and its audit log entry, in one transaction (never the key itself). */
  function issueRecorded(
    member: { userId: number; orgId: number },
    options: { scopes: KeyScope[]; projects: string[] | null; expiresAt: string | null },
  ): Promise<{ id: number; key: string }> {
    return withTransaction(db, async (trx) => {
      const issued = await issueKey(trx, member, iso(), undefined, options);
      await recordChange(trx, ctx.now(), member.orgId, {
        action: 'key.created',
        target: { type: 'key', id: issued.id },
        changes: {
          user_id: member.userId,
          scopes: options.scopes,
          projects: options.projects,
          expires_at: options.expiresAt,
        },
      });
      return issued;
    });
  }

  /**
   * Revokes a key and records it, in one transaction; false when there is no such key. A key
   * revoked before stays as it was (its first date) and records nothing again.
   */
  function revokeRecorded(key: { id: number; orgId: number; userId: number }): Promise<boolean> {
    return withTransaction(db, async (trx) => {
      const done = await revokeKey(trx, key.id, iso());
      if (done !== 'revoked') return done === 'already';
      await recordChange(trx, ctx.now(), key.orgId, {
        action: 'key.revoked',
        target: { type: 'key', id: key.id },
        changes: { user_id: key.userId },
      });
      return true;
    });
  }

  /** A new key's options, checked (422 naming each invalid field). */
  function keyOptions(
    options: KeyOptions,
    role: Role,
  ): {
    scopes: KeyScope[];
    projects: string[] | null;
    expiresAt: string | null;
  } {
    const errors: Record<string, string[]> = {};
    // a viewer's key reads; anyone else's writes unless told
    const scope = options.scope ?? (role === 'viewer' ? 'read' : 'write');
    if (!KEY_SCOPES.includes(scope)) errors.scope = [`The scope must be one of: ${KEY_SCOPES.join(', ')}.`];
    else if (scope === 'write' && role === 'viewer')
      errors.scope = ['A viewer can only have read keys (the role allows no writes).'];
    const limit = projectLimit(options.projects);
    const projects = 'projects' in limit ? limit.projects : null;
    if ('error' in limit) errors.projects = [limit.error];
    let expiresAt: string | null = null;
    if (options.expiresAt) {
      const t = Date.parse(options.expiresAt);
      if (!Number.isFinite(t) || t <= ctx.now().getTime())
        errors.expires_at = ['The expires_at must be a date and time in the future.'];
      else expiresAt = new Date(t).toISOString();
    }
    if (Object.keys(errors).length > 0) throw validationError(errors);
    return { scopes: scope === 'write' ? ['read', 'write'] : ['read'], projects, expiresAt };
  }

  async function keyInfo(id: number): Promise<ApiKeyInfo> {
    const info = await findKeyById(db, id);
    if (!info) throw notFound(`No such key: ${id}.`);
    return info;
  }

  /**
   * managing one's own keys takes a write key for every project (a limited key cannot mint a
   * wider one) and a person (an organisation id alone has no keys of its own)
   */
  function managingActor(who: Principal): Actor & { memberId: number } {
    const actor = actorOf(who);
    requireScope(actor, 'write');
    if (actor.projects !== null)
      throw forbidden('Forbidden: managing API keys needs a key for every project.');
    if (actor.memberId === null) throw forbidden('Forbidden: keys belong to a member of the organisation.');
    return { ...actor, memberId: actor.memberId };
  }

  /**
   * The membership a new key of `user` is made in: the organisation named (404 unknown, 422
   * not a member), or the user's first.
   */
  async function memberOf(
    user: UserRow,
    orgName: string | undefined,
  ): Promise<{ userId: number; orgId: number; role: Role }> {
    if (orgName !== undefined) {
      const org = await findOrgByName(db, orgName);
      if (!org) throw notFound(`No such organization: ${orgName}.`);
      const m = await findMembership(db, org.id, user.id);
      if (!m) throw validationError({ org: [`${user.name} is not a member of ${org.name}.`] });
      return { userId: user.id, orgId: org.id, role: m.role };
    }
    const [first] = await listMemberships(db, user.id);
    if (!first) throw validationError({ org: [`${user.name} is not a member of any organization.`] });
    return { userId: user.id, orgId: first.orgId, role: first.role };
  }

  /**
   * What a key may do: its member's role now narrows its scopes (a viewer's key only reads)
   * and the member's project limit narrows its projects (both limits: the projects in both).
   */
  function authContextOf(row: KeyAuthRow): AuthContext {
    const scopes = row.role === 'viewer' ? row.scopes.filter((sc) => sc === 'read') : row.scopes;
    let projects: string[] | null = row.projects;
    if (row.memberProjects !== null)
      projects =
        projects === null ? row.memberProjects : projects.filter((p) => row.memberProjects!.includes(p));
    return {
      orgId: row.orgId,
      memberId: row.userId,
      role: row.role,
      keyId: row.id,
      scopes,
      projects,
    };
  }

  let sessionSecret: string | null = config.sessionSecret;

  // Key hash → its key: a request is authenticated without a query while the database says that
  // no key changed since the cache was filled (ctx.keyChanges, src/store/key-changes.ts: SQLite's
  // data_version and counter, PostgreSQL's NOTIFY), whatever process or tool changed it. When it
  // cannot say (a transaction open on SQLite's connection, the LISTEN connection down), or there is
  // no such signal, every request reads its key. An entry also lives at most `keyCacheMs` (default
  // 10 s; 0: no cache). Expiry is checked on every request, from the cached row.
  const keyCacheMs = ctx.keyChanges ? (config.keyCacheMs ?? 10_000) : 0;
  const keyCache = new Map<string, { row: KeyAuthRow; until: number }>();
  const KEY_CACHE_MAX = 10_000;
  // the database's generation the cache holds rows of
  let cachedGeneration: number | null = null;
  // bumped by every clear here: a row read before a revocation is not cached after it
  let keyGeneration = 0;
  const forgetKeys = () => {
    keyGeneration++;
    keyCache.clear();
  };
  ctx.keyBus?.subscribe(forgetKeys);
  const keysChanged = async () => {
    forgetKeys();
    await ctx.keyBus?.publish().catch(() => {});
  };

  /** the database's generation when the cache may be used now (emptied when it moved), else null */
  function trustedGeneration(): number | null {
    if (keyCacheMs <= 0) return null;
    const generation = ctx.keyChanges!.generation();
    if (generation !== null && generation !== cachedGeneration) {
      forgetKeys();
      cachedGeneration = generation;
    }
    return generation;
  }

  async function keyByHash(hash: string): Promise<KeyAuthRow | null> {
    const now = Date.now();
    const generation = trustedGeneration();
    if (generation !== null) {
      const cached = keyCache.get(hash);
      if (cached && cached.until > now) return cached.row;
    }
    const local = keyGeneration;
    const row = await findKeyByHash(db, hash);
    // cached only when nothing changed, here or in the database, while it was read
    if (
      row &&
      row.revokedAt === null &&
      generation !== null &&
      local === keyGeneration &&
      trustedGeneration() === generation
    ) {
      if (keyCache.size >= KEY_CACHE_MAX) keyCache.clear();
      keyCache.set(hash, { row, until: now + keyCacheMs });
    } else keyCache.delete(hash);
    return row;
  }

  return {
    auth: {
      async authenticate(token: string) {
        if (!token || token.length > 512) return null;
        const hash = hashApiKey(token);
        const row = await keyByHash(hash);
        // the row was found by its hash; comparing again in constant time keeps the decision
        // itself free of early-exit comparisons
        if (!row || !sameHash(row.hash, hash) || row.revokedAt !== null || row.disabled) return null;
        const now = ctx.now();
        if (row.expiresAt !== null && Date.parse(row.expiresAt) <= now.getTime())
          throw unauthorized('Unauthenticated: the API key has expired.');
        if (row.lastUsedAt === null || Date.parse(row.lastUsedAt) <= now.getTime() - TOUCH_INTERVAL_MS) {
          const before = new Date(now.getTime() - TOUCH_INTERVAL_MS).toISOString();
          // bookkeeping only: a busy database must not fail the request
          await touchKey(db, row.id, now.toISOString(), before).catch(() => {});
          // the cached row (the same object) now says when it was last used
          row.lastUsedAt = now.toISOString();
        }
        return authContextOf(row);
      },

      async session(userId: number, keyId: number) {
        // a session lives as long as the key it was opened with: revoked or gone (or its
        // member gone from the organisation, or disabled), it ends
        const row = await findKeyAuthById(db, keyId);
        if (!row || row.userId !== userId || row.revokedAt !== null || row.disabled) return null;
        if (row.expiresAt !== null && Date.parse(row.expiresAt) <= ctx.now().getTime()) return null;
        return { ...authContextOf(row), name: row.userName };
      },

      keysChanged,
    },

    users: {
      async create(name: string, options: Parameters<OwnerServices['users']['create']>[1] = {}) {
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
        if ((await findUserByName(db, name)) || (await findOrgByName(db, name)))
          throw validationError({ name: [`The name "${name}" is already taken.`] });
        if (options.email && (await findUserByEmail(db, options.email)))
          throw validationError({ email: [`The email ${options.email} belongs to another account.`] });
        try {
          return await withTransaction(db, async (trx) => {
            const now = iso();
            // the first person on the instance is its admin
            const first = (await countUsers(trx)) === 0;
            const user: User = await insertUser(trx, name, now, {
              isAdmin: first,
              email: options.email ?? null,
              passwordHash: options.passwordHash ?? null,
            });
            // and the owner of an organisation of their own, of the same name
            const org = await insertOrg(trx, name, now);
            await insertMembership(trx, {
              orgId: org.id,
              userId: user.id,
              role: 'owner',
              projects: null,
              createdAt: now,
            });
            const { id, key } = await issueKey(trx, { userId: user.id, orgId: org.id }, now, options.key);
            const info: ApiKeyInfo = {
              id,
              userId: user.id,
              userName: user.name,
              orgId: org.id,
              orgName: org.name,
              prefix: keyDisplayPrefix(key),
              createdAt: user.createdAt,
              lastUsedAt: null,
              revokedAt: null,
              scopes: ['read', 'write'],
              projects: null,
              expiresAt: null,
            };
            if (options.byAdmin)
              await recordInstanceChange(
                trx,
                ctx.now(),
                { action: 'user.created', target: { type: 'user', id: user.id }, changes: { name: user.name } },
                [org.id],
              );
            const issued: IssuedKey = { info, key };
            return { user, key: issued, organization: { id: org.id, name: org.name } };
          });
        } catch (err) {
          if (err instanceof AppError) throw err;
          // lost a race on the unique name (or the fixed key already exists)
          if (await findUserByName(db, name))
            throw validationError({ name: [`The name "${name}" is already taken.`] });
          throw err;
        }
      },
      find: (nameOrId: string | number) => findUserRef(db, nameOrId),
      get: (id: number) => findUserById(db, id),
      list: () => listUsers(db),
    },

    keys: {
      async create(user: string | number, options: KeyOptions = {}) {
        const owner = await requireUser(user);
        const member = await memberOf(owner, options.org);
        const { id, key } = await issueRecorded(member, keyOptions(options, member.role));
        return { info: await keyInfo(id), key };
      },
      async createOwn(who: Principal, options: KeyOptions = {}) {
        const actor = managingActor(who);
        const { id, key } = await issueRecorded(
          { userId: actor.memberId, orgId: actor.orgId },
          keyOptions(options, actor.role),
        );
        return { info: await keyInfo(id), key };
      },
      async revokeOwn(who: Principal, keyId: number) {
        // a member revokes their own keys; the organisation itself (an id: the CLI, tests) any of its keys
        const actor = actorOf(who);
        requireScope(actor, 'write');
        if (actor.projects !== null)
          throw forbidden('Forbidden: managing API keys needs a key for every project.');
        const key = await findKeyById(db, keyId);
        if (!key || key.orgId !== actor.orgId || (actor.memberId !== null && key.userId !== actor.memberId))
          throw notFound(`No such key: ${keyId}.`);
        await revokeRecorded(key);
        await keysChanged();
        return keyInfo(keyId);
      },
      async list(user?: string | number) {
        if (user === undefined) return listKeys(db);
        return listKeys(db, (await requireUser(user)).id);
      },
      async listOwn(who: Principal) {
        const actor = actorOf(who);
        if (actor.memberId === null) return [];
        return listKeys(db, actor.memberId, actor.orgId);
      },
      async revoke(keyId: number) {
        const key = await findKeyById(db, keyId);
        if (!key || !(await revokeRecorded(key))) throw notFound(`No such key: ${keyId}.`);
        await keysChanged();
        return keyInfo(keyId);
      },
    },

    account: {
      async show(actor: AuthContext) {
        const user = await findUserById(db, actor.memberId);
        const org = await findOrgById(db, actor.orgId);
        if (!user || !org) throw unauthorized('Unauthenticated: the API key is unknown or revoked.');
        const key = await keyInfo(actor.keyId);
        let reportsCount: number;
        let projectsCount: number;
        if (actor.projects === null) {
          const counters = await getOrgCounters(db, actor.orgId);
          reportsCount = counters.reports;
          projectsCount = counters.projects;
        } else {
          // what the key sees: its projects that hold reports
          const rows = await Promise.all(actor.projects.map((p) => findProject(db, actor.orgId, p)));
          const found = rows.filter((r) => r !== null);
          projectsCount = found.length;
          reportsCount = found.reduce((n, r) => n + r.reportsCount, 0);
        }
        return {
          id: user.id,
          name: user.name,
          createdAt: user.createdAt,
          reportsCount,
          projectsCount,
          key,
          organization: { id: org.id, name: org.name, role: actor.role },
        };
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
