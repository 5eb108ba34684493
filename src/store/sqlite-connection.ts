// The SQLite connection as Kysely gets it (createDb in database.ts): better-sqlite3 with a cache
// of prepared statements, and the watch on API key changes that the same connection serves
// (key-changes.ts).
import type SqliteDatabase from 'better-sqlite3';
import type { KeyChangeWatch } from './key-changes.js';

/**
 * Kysely's SQLite driver prepares every statement anew; the queries repeat, so keep the
 * prepared statements (bounded, oldest dropped first). Safe: Kysely runs one statement at a
 * time on its single connection and never leaves an iterator open. Saves 20–30 % of the CPU
 * of a simple API request (bench: docs/benchmarks-api.md).
 *
 * `keyChanges`: the key caches' signal. PRAGMA data_version moves when another connection (another
 * process, the CLI, the sqlite3 shell) committed; then the counter the triggers bump is read. A
 * write of this connection's own (any statement that is not read-only) is not seen by
 * data_version, so it makes the next look read the counter too. Inside a transaction (one of
 * this process's, open on the connection across awaits) the answer is null: its snapshot may
 * predate another's commit, and reading it would take the transaction's view.
 */
export function sqliteConnection(
  database: SqliteDatabase.Database,
  max = 500,
): {
  driver: { close(): void; prepare(sqlText: string): SqliteDatabase.Statement };
  keyChanges: KeyChangeWatch;
} {
  const cache = new Map<string, SqliteDatabase.Statement>();
  // a write of this connection since the counter was last read (true: never read yet)
  let wrote = true;
  const driver = {
    close: () => database.close(),
    prepare(sqlText: string) {
      let statement = cache.get(sqlText);
      if (!statement) {
        statement = database.prepare(sqlText);
        if (cache.size >= max) cache.delete(cache.keys().next().value!);
        cache.set(sqlText, statement);
      }
      // prepared here, run at once by the driver (in the same tick)
      if (!statement.readonly) wrote = true;
      return statement;
    },
  };

  let dataVersion: SqliteDatabase.Statement<[], number> | null = null;
  let counter: SqliteDatabase.Statement<[], number> | null = null;
  let seenVersion = -1;
  let generation: number | null = null;
  const keyChanges: KeyChangeWatch = {
    generation() {
      if (!database.open || database.inTransaction) return null;
      try {
        dataVersion ??= database.prepare<[], number>('PRAGMA data_version').pluck();
        const version = dataVersion.get()!;
        if (version !== seenVersion || wrote) {
          counter ??= database.prepare<[], number>('SELECT n FROM auth_generation WHERE id = 1').pluck();
          const n = counter.get();
          wrote = false;
          seenVersion = version;
          generation = typeof n === 'number' ? n : null;
        }
        return generation;
      } catch {
        // not migrated yet, or the connection busy or closed: nothing can be told
        return null;
      }
    },
  };
  return { driver, keyChanges };
}
