// What a DATABASE_URL names, without opening it (no driver loaded): the SQLite file's path, and
// a one-line description for messages ("SQLite database /srv/pagegrade/data/pagegrade.db",
// "PostgreSQL database app on db.internal:5432 as pagegrade"). Passwords are never shown.
import { resolve } from 'node:path';

/** The file path of a `sqlite:` URL (`sqlite:./data/x.db`, `sqlite:///abs/x.db`, `sqlite::memory:`). */
export function sqlitePath(databaseUrl: string): string {
  let path = databaseUrl.slice('sqlite:'.length);
  if (path.startsWith('//')) path = path.slice(2);
  if (path === '') throw new Error('DATABASE_URL: sqlite: needs a file path');
  return path;
}

/** The SQLite file a URL points to, absolute; null for PostgreSQL and `sqlite::memory:`. */
export function sqliteFile(databaseUrl: string): string | null {
  if (!databaseUrl.startsWith('sqlite:')) return null;
  const path = sqlitePath(databaseUrl);
  return path === ':memory:' ? null : resolve(path);
}

/** "SQLite database /abs/file.db" or "PostgreSQL database NAME on HOST:PORT as USER". */
export function describeDatabase(databaseUrl: string): string {
  if (databaseUrl.startsWith('sqlite:')) {
    const file = sqliteFile(databaseUrl);
    return file === null ? 'SQLite database in memory' : `SQLite database ${file}`;
  }
  try {
    const u = new URL(databaseUrl);
    const name = decodeURIComponent(u.pathname.replace(/^\//, '')) || '(default)';
    const user = u.username ? ` as ${decodeURIComponent(u.username)}` : '';
    return `PostgreSQL database ${name} on ${u.hostname || 'localhost'}:${u.port || '5432'}${user}`;
  } catch {
    return 'PostgreSQL database (unparsable DATABASE_URL)';
  }
}
