// Single sign-on with OpenID Connect (docs/teams.md "Single sign-on"): `sso_logins` holds a
// sign-in under way at the identity provider (keyed by the SHA-256 of its `state`; its PKCE
// code verifier and nonce; where to go after; used once, for 10 minutes); `identities` links
// an issuer's subject (`sub`) to a person, so that later sign-ins find them even when the
// provider's email changes.
//
// Frozen once released: never imports application code, never edited.
import { PostgresAdapter, sql, type Kysely } from 'kysely';

const sqliteUp = [
  `CREATE TABLE sso_logins (
    id TEXT PRIMARY KEY,
    code_verifier TEXT NOT NULL,
    nonce TEXT NOT NULL,
    next_path TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    used_at TEXT
  )`,
  `CREATE INDEX sso_logins_expires ON sso_logins (expires_at)`,
  `CREATE TABLE identities (
    issuer TEXT NOT NULL,
    subject TEXT NOT NULL,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    email TEXT,
    created_at TEXT NOT NULL,
    last_used_at TEXT,
    PRIMARY KEY (issuer, subject)
  )`,
  `CREATE INDEX identities_user ON identities (user_id)`,
];

const postgresUp = [
  `CREATE TABLE sso_logins (
    id text PRIMARY KEY,
    code_verifier text NOT NULL,
    nonce text NOT NULL,
    next_path text NOT NULL,
    created_at timestamptz(3) NOT NULL,
    expires_at timestamptz(3) NOT NULL,
    used_at timestamptz(3)
  )`,
  `CREATE INDEX sso_logins_expires ON sso_logins (expires_at)`,
  `CREATE TABLE identities (
    issuer text NOT NULL,
    subject text NOT NULL,
    user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    email text,
    created_at timestamptz(3) NOT NULL,
    last_used_at timestamptz(3),
    PRIMARY KEY (issuer, subject)
  )`,
  `CREATE INDEX identities_user ON identities (user_id)`,
];

const downStatements = [`DROP TABLE identities`, `DROP TABLE sso_logins`];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const statement of postgres ? postgresUp : sqliteUp) await sql.raw(statement).execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of downStatements) await sql.raw(statement).execute(db);
}
