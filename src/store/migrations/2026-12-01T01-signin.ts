// Signing in (docs/teams.md "Signing in"): a person's email (unique, lower-case), password
// hash (scrypt with its parameters in the value) and TOTP second factor (its secret encrypted
// with PAGEGRADE_SECRET_KEY); the dashboard's server-side sessions (the random id stored as
// its SHA-256; a person's current organisation; a key's session names its key); password
// reset links (the token stored as its SHA-256, single use, expiring) and recovery codes
// (stored as their SHA-256, single use). `totp_last_step` is the last time step a code was
// accepted for: a code is never accepted twice.
//
// Frozen once released: never imports application code, never edited.
import { PostgresAdapter, sql, type Kysely } from 'kysely';

const sqliteUp = [
  `ALTER TABLE users ADD COLUMN email TEXT`,
  `CREATE UNIQUE INDEX users_email ON users (email)`,
  `ALTER TABLE users ADD COLUMN password_hash TEXT`,
  `ALTER TABLE users ADD COLUMN totp_secret TEXT`,
  `ALTER TABLE users ADD COLUMN totp_enabled_at TEXT`,
  `ALTER TABLE users ADD COLUMN totp_last_step INTEGER`,
  `CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    org_id INTEGER REFERENCES organizations(id) ON DELETE CASCADE,
    key_id INTEGER REFERENCES api_keys(id) ON DELETE CASCADE,
    stage TEXT NOT NULL DEFAULT 'active' CHECK (stage IN ('active', 'totp')),
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    revoked_at TEXT
  )`,
  `CREATE INDEX sessions_user ON sessions (user_id)`,
  `CREATE TABLE password_resets (
    id TEXT PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    used_at TEXT
  )`,
  `CREATE INDEX password_resets_user ON password_resets (user_id)`,
  `CREATE TABLE recovery_codes (
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    hash TEXT NOT NULL,
    used_at TEXT,
    PRIMARY KEY (user_id, hash)
  )`,
];

const postgresUp = [
  `ALTER TABLE users ADD COLUMN email text`,
  `CREATE UNIQUE INDEX users_email ON users (email)`,
  `ALTER TABLE users ADD COLUMN password_hash text`,
  `ALTER TABLE users ADD COLUMN totp_secret text`,
  `ALTER TABLE users ADD COLUMN totp_enabled_at timestamptz(3)`,
  `ALTER TABLE users ADD COLUMN totp_last_step bigint`,
  `CREATE TABLE sessions (
    id text PRIMARY KEY,
    user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    org_id integer REFERENCES organizations(id) ON DELETE CASCADE,
    key_id integer REFERENCES api_keys(id) ON DELETE CASCADE,
    stage text NOT NULL DEFAULT 'active' CHECK (stage IN ('active', 'totp')),
    created_at timestamptz(3) NOT NULL,
    expires_at timestamptz(3) NOT NULL,
    revoked_at timestamptz(3)
  )`,
  `CREATE INDEX sessions_user ON sessions (user_id)`,
  `CREATE TABLE password_resets (
    id text PRIMARY KEY,
    user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at timestamptz(3) NOT NULL,
    expires_at timestamptz(3) NOT NULL,
    used_at timestamptz(3)
  )`,
  `CREATE INDEX password_resets_user ON password_resets (user_id)`,
  `CREATE TABLE recovery_codes (
    user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    hash text NOT NULL,
    used_at timestamptz(3),
    PRIMARY KEY (user_id, hash)
  )`,
];

const downStatements = [
  `DROP TABLE recovery_codes`,
  `DROP TABLE password_resets`,
  `DROP TABLE sessions`,
  `DROP INDEX users_email`,
  `ALTER TABLE users DROP COLUMN totp_last_step`,
  `ALTER TABLE users DROP COLUMN totp_enabled_at`,
  `ALTER TABLE users DROP COLUMN totp_secret`,
  `ALTER TABLE users DROP COLUMN password_hash`,
  `ALTER TABLE users DROP COLUMN email`,
];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const statement of postgres ? postgresUp : sqliteUp) await sql.raw(statement).execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of downStatements) await sql.raw(statement).execute(db);
}
