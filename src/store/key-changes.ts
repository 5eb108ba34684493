// Whether API keys changed in the database, for the key caches of
// src/services/accounts/accounts.service.ts (docs/api.md, "The key cache"). Every change that
// matters to authentication — a key's row updated (but for last_used_at, the bookkeeping of its
// uses) or deleted, a user deleted — is signalled by the database itself, through the triggers of
// migration 2026-11-29T06-key-changes, whatever process or tool makes it (the service, the CLI,
// psql, the sqlite3 shell):
// - SQLite: the triggers bump the one-row counter auth_generation.n. A process reads
//   PRAGMA data_version on its connection (it changes only when another connection committed)
//   and, when it moved, the counter; its own writes are noticed by its statement cache
//   (sqlite-connection.ts). Synchronous, a few µs a request.
// - PostgreSQL: the triggers NOTIFY `keys` on the live changes channel, heard by the LISTEN bus
//   (pg-changes.ts, pgKeyChanges). While that connection is down nothing is trusted.

/** The NOTIFY payload of a key change (the migration's triggers send it on PG_CHANGES_CHANNEL). */
export const KEYS_TOPIC = 'keys';

export interface KeyChangeWatch {
  /**
   * A number that moves whenever a key or user may have changed, in any process; null when that
   * cannot be told now — then no cached key may be trusted (read it from the database).
   * Synchronous and cheap: called on every authenticated request.
   */
  generation(): number | null;
}
