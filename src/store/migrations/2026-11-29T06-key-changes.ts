// API key changes signalled by the database itself (issue 22 §1; src/store/key-changes.ts), so
// that a running service's key cache sees a revocation at once, whatever process or tool makes
// it: a key's row updated in anything but last_used_at (the bookkeeping of its uses, written
// once a minute per key in use: no reason to drop every cache), a key deleted, a user deleted.
// - SQLite: triggers bump the one-row counter auth_generation.n; the services read it when
//   PRAGMA data_version says another connection committed.
// - PostgreSQL: triggers NOTIFY `keys` on the live changes channel `pagegrade_changes`
//   (src/store/pg-changes.ts PG_CHANGES_CHANNEL), heard by every process's LISTEN connection;
//   a TRUNCATE notifies too. A column added to api_keys later is covered on PostgreSQL (the row
//   is compared whole, but for last_used_at); on SQLite the trigger names the columns.
// Frozen once released: never imports application code, never edited.
import { PostgresAdapter, sql, type Kysely } from 'kysely';

const bump = `UPDATE auth_generation SET n = n + 1 WHERE id = 1`;

const sqliteUp = [
  `CREATE TABLE auth_generation (id INTEGER PRIMARY KEY CHECK (id = 1), n INTEGER NOT NULL)`,
  `INSERT INTO auth_generation (id, n) VALUES (1, 0)`,
  `CREATE TRIGGER api_keys_changed AFTER UPDATE ON api_keys
     WHEN OLD.id IS NOT NEW.id OR OLD.user_id IS NOT NEW.user_id OR OLD.prefix IS NOT NEW.prefix
       OR OLD.hash IS NOT NEW.hash OR OLD.created_at IS NOT NEW.created_at
       OR OLD.revoked_at IS NOT NEW.revoked_at OR OLD.scopes IS NOT NEW.scopes
       OR OLD.projects IS NOT NEW.projects OR OLD.expires_at IS NOT NEW.expires_at
     BEGIN ${bump}; END`,
  `CREATE TRIGGER api_keys_deleted AFTER DELETE ON api_keys BEGIN ${bump}; END`,
  `CREATE TRIGGER users_deleted AFTER DELETE ON users BEGIN ${bump}; END`,
];

const sqliteDown = [
  `DROP TRIGGER users_deleted`,
  `DROP TRIGGER api_keys_deleted`,
  `DROP TRIGGER api_keys_changed`,
  `DROP TABLE auth_generation`,
];

const postgresUp = [
  `CREATE FUNCTION pagegrade_keys_changed() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     PERFORM pg_notify('pagegrade_changes', 'keys');
     RETURN NULL;
   END $$`,
  `CREATE TRIGGER api_keys_changed AFTER UPDATE ON api_keys FOR EACH ROW
     WHEN ((to_jsonb(OLD) - 'last_used_at') IS DISTINCT FROM (to_jsonb(NEW) - 'last_used_at'))
     EXECUTE FUNCTION pagegrade_keys_changed()`,
  `CREATE TRIGGER api_keys_deleted AFTER DELETE OR TRUNCATE ON api_keys FOR EACH STATEMENT
     EXECUTE FUNCTION pagegrade_keys_changed()`,
  `CREATE TRIGGER users_deleted AFTER DELETE OR TRUNCATE ON users FOR EACH STATEMENT
     EXECUTE FUNCTION pagegrade_keys_changed()`,
];

const postgresDown = [
  `DROP TRIGGER users_deleted ON users`,
  `DROP TRIGGER api_keys_deleted ON api_keys`,
  `DROP TRIGGER api_keys_changed ON api_keys`,
  `DROP FUNCTION pagegrade_keys_changed()`,
];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const statement of postgres ? postgresUp : sqliteUp) await sql.raw(statement).execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const statement of postgres ? postgresDown : sqliteDown) await sql.raw(statement).execute(db);
}
