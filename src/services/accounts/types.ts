// The accounts feature's types: users, API keys and their scopes, who is acting (an Actor or a
// bare user id), the signed-in account, and the users/keys/auth/settings services.
export interface User {
  id: number;
  name: string;
  createdAt: string;
}

/**
 * An API key as listed (never the secret): the store's row — `prefix` is the key's first
 * characters (`pg_Ab3dE9`), `scopes` `['read']` (GET only) or `['read', 'write']`, `projects`
 * null for every project of its user, `expiresAt` null for never.
 */
export type { KeyRow as ApiKeyInfo } from '../../store/keys.repository.js';
import type { KeyRow as ApiKeyInfo } from '../../store/keys.repository.js';

/** What a key may do: `read` (GET only) or `write` (everything; a write key reads too). */
export const KEY_SCOPES = ['read', 'write'] as const;
export type KeyScope = (typeof KEY_SCOPES)[number];

/** Options of a new key (keys.create); the defaults: write, every project, no expiry. */
export interface KeyOptions {
  scope?: KeyScope | undefined;
  /** project names as a user gives them (normalised like every project name) */
  projects?: string[] | null | undefined;
  /** ISO date-time; null or absent: never */
  expiresAt?: string | null | undefined;
  /** the organisation (name) the key acts in (keys.create); absent: the user's first */
  org?: string | undefined;
}

/**
 * A member's role in an organisation, weakest first (docs/teams.md): `viewer` reads, `member`
 * audits, crawls and edits reports and projects, `admin` also manages members, keys, webhooks,
 * branding and settings, `owner` everything (and the owners). What each operation needs is the
 * access table (src/services/access/table.ts).
 */
export const ROLES = ['viewer', 'member', 'admin', 'owner'] as const;
export type Role = (typeof ROLES)[number];

/**
 * Who acts on an organisation's data and what they may do: the auth plugin builds one from the
 * API key (the key's member, their role now, the key's scopes and projects narrowed by the
 * role) and hands it to the services, which apply the rules (src/services/access). A plain
 * organisation id (internal callers, the CLI) is the organisation itself: owner, every scope,
 * every project.
 */
export interface Actor {
  /** the organisation whose data it acts on (the owner column `org_id`) */
  orgId: number;
  /** the person acting (a member of the organisation); null for the organisation itself */
  memberId: number | null;
  role: Role;
  scopes: readonly KeyScope[];
  /** null: every project; otherwise only these (others answer 404, as another organisation's data) */
  projects: readonly string[] | null;
}

/** An actor, or an organisation id (owner, all scopes, all projects). */
export type Principal = number | Actor;

/** A freshly issued key: `key` is the secret, shown once and never again. */
export interface IssuedKey {
  info: ApiKeyInfo;
  key: string;
}

/** Who a valid API key belongs to, and what the key may do. */
export interface AuthContext extends Actor {
  memberId: number;
  keyId: number;
}

/** GET /api/v1/account: the key's user (counts as far as the key sees) and the key. */
// the signed-in account as GET /api/v1/account shows it is the contract's
export type { Account } from '../../contract/account.js';

/** The engine's entry point, injected (tests pass the real one). */
export interface AuthServices {
  /**
   * The owner of an API key, or null for an unknown or revoked key (the HTTP layer answers
   * 401). Compares hashes in constant time; records last_used_at at most once a minute.
   */
  authenticate(token: string): Promise<AuthContext | null>;
  /**
   * A signed-in page session opened with key `keyId`: its user (with the name to show) while
   * that key exists, belongs to the user and is not revoked; otherwise null (signed out).
   */
  session(userId: number, keyId: number): Promise<(AuthContext & { name: string }) | null>;
  /**
   * Keys' rights changed outside this service (a member's role or projects, a member removed):
   * the key cache forgets what it holds, here and in the other processes.
   */
  keysChanged(): Promise<void>;
}

export interface UsersServices {
  /**
   * A new user and its first key; 422 `name` when taken or invalid. `key` fixes the first
   * key's secret (PAGEGRADE_BOOTSTRAP_KEY); otherwise it is random.
   */
  create(
    name: string,
    options?: {
      key?: string | undefined;
      /** lower-case and checked by the caller (src/services/signin) */
      email?: string | null | undefined;
      /** a password hash made by the caller (src/services/signin/passwords.ts) */
      passwordHash?: string | null | undefined;
      /** made by the instance's operator (`pagegrade users create`): recorded in the instance log */
      byAdmin?: boolean;
    },
  ): Promise<{ user: User; key: IssuedKey; organization: { id: number; name: string } }>;
  /** by name, or by id when `nameOrId` is all digits (a name is tried first) */
  find(nameOrId: string | number): Promise<User | null>;
  get(id: number): Promise<User | null>;
  list(): Promise<User[]>;
}

export interface KeysServices {
  /**
   * a new key for a user (name or id); 404 for an unknown user; 422 `scope`, `projects` or
   * `expires_at` for invalid options
   */
  create(user: string | number, options?: KeyOptions): Promise<IssuedKey>;
  /**
   * the dashboard's: a key for the actor's own user. Managing keys takes a write key for every
   * project (403 otherwise: a limited key cannot mint a wider one).
   */
  createOwn(who: Principal, options?: KeyOptions): Promise<IssuedKey>;
  /** the actor's own key (the dashboard): 404 when missing or another user's; 403 as createOwn */
  revokeOwn(who: Principal, keyId: number): Promise<ApiKeyInfo>;
  /** every key, or one user's (404 for an unknown user); oldest first */
  list(user?: string | number): Promise<ApiKeyInfo[]>;
  /** the actor's own keys in its organisation (the dashboard's keys page); oldest first */
  listOwn(who: Principal): Promise<ApiKeyInfo[]>;
  /** 404 for an unknown key; revoking a revoked key keeps its first revocation date */
  revoke(keyId: number): Promise<ApiKeyInfo>;
}

export interface SettingsServices {
  /** config.sessionSecret, or a random secret generated on first use and kept in the database */
  sessionSecret(): Promise<string>;
}
