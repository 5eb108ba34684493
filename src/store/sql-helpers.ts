// Small helpers the repositories share: dates, numbers, and the substring search.
import { sql, type RawBuilder } from 'kysely';
import type { Dialect } from './database.js';

/** What Date#toISOString writes for years 0–9999: stored text of this shape is passed through. */
const CANONICAL_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * A stored date (ISO text on SQLite, Date on PostgreSQL) as an ISO 8601 UTC string with
 * milliseconds. SQLite's text was written by toISOString, so it is returned as it is when it
 * has that shape (no Date per field); other text is parsed and written again.
 */
export function toIso(value: Date | string): string {
  if (typeof value === 'string') return CANONICAL_ISO.test(value) ? value : new Date(value).toISOString();
  return value.toISOString();
}

export function toIsoOrNull(value: Date | string | null | undefined): string | null {
  return value === null || value === undefined ? null : toIso(value);
}

/** count(*) and sums come back as strings from PostgreSQL (bigint/numeric). */
/** A JSON array of project names as stored (a key's or a member's limit); null: every project. */
export const parseProjects = (text: string | null): string[] | null =>
  text === null ? null : (JSON.parse(text) as string[]);

export function toNumber(value: unknown): number {
  return typeof value === 'number' ? value : Number(value ?? 0);
}

/** Escapes a LIKE pattern so that %, _ and \ match themselves (used with ESCAPE '\'). */
export function escapeLike(term: string): string {
  return term.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Search terms this long (in characters) use the trigram index on SQLite. */
export const TRIGRAM_MIN = 3;

/**
 * A case-insensitive, literal substring condition on `column`.
 * - PostgreSQL: `column ILIKE '%term%' ESCAPE '\'`, served by a pg_trgm GIN index
 *   (terms under 3 characters cannot use trigrams and scan the user's rows).
 * - SQLite, ≥ 3 characters: the rowid is in the FTS5 trigram table's matches for the term as
 *   one phrase (a phrase of consecutive trigrams is exactly a substring; case folded).
 * - SQLite, shorter: `column LIKE '%term%' ESCAPE '\'` (ASCII case-insensitive), scanning the
 *   user's rows through the (org_id, …) index.
 */
export function substringMatch(
  dialect: Dialect,
  table: 'reports' | 'projects',
  column: 'url' | 'name',
  term: string,
  /** SQLite: `+id IN (…)`, so the matches are checked while walking another index, not fetched by rowid */
  probeInWalk = false,
): RawBuilder<boolean> {
  // stored URLs and names never hold NUL (URLs percent-encode it); as a term it is refused by
  // PostgreSQL, breaks an FTS5 phrase and cuts a LIKE pattern short in SQLite: it matches nothing
  if (term.includes('\u0000')) return sql<boolean>`1 = 0`;
  const ref = sql.ref(`${table}.${column}`);
  const pattern = `%${escapeLike(term)}%`;
  if (dialect === 'postgres') return sql<boolean>`${ref} ILIKE ${pattern} ESCAPE '\\'`;
  if ([...term].length >= TRIGRAM_MIN) {
    const fts = sql.table(`${table}_fts`);
    const phrase = `"${term.replaceAll('"', '""')}"`;
    const id = probeInWalk ? sql`+${sql.ref(`${table}.id`)}` : sql.ref(`${table}.id`);
    return sql<boolean>`${id} IN (SELECT rowid FROM ${fts} WHERE ${fts} MATCH ${phrase})`;
  }
  return sql<boolean>`${ref} LIKE ${pattern} ESCAPE '\\'`;
}

/**
 * The same substring condition as `substringMatch`, evaluated row by row while walking
 * another index (never through the trigram index): for a term common enough that the first
 * page is found after a few hundred rows of the sort index.
 * - PostgreSQL: `(column || '') ILIKE …` — the same ILIKE, on an expression the pg_trgm index
 *   cannot serve, so the planner walks the btree index of the requested order.
 * - SQLite: `column LIKE …` (ASCII case folding: only for ASCII terms, where it equals the
 *   FTS5 trigram phrase match on the stored ASCII URLs; see `canFilterRowByRow`).
 */
export function substringFilter(
  dialect: Dialect,
  table: 'reports' | 'projects',
  column: 'url' | 'name',
  term: string,
): RawBuilder<boolean> {
  // stored URLs and names never hold NUL (URLs percent-encode it); as a term it is refused by
  // PostgreSQL, breaks an FTS5 phrase and cuts a LIKE pattern short in SQLite: it matches nothing
  if (term.includes('\u0000')) return sql<boolean>`1 = 0`;
  const ref = sql.ref(`${table}.${column}`);
  const pattern = `%${escapeLike(term)}%`;
  if (dialect === 'postgres') return sql<boolean>`(${ref} || '') ILIKE ${pattern} ESCAPE '\\'`;
  return sql<boolean>`${ref} LIKE ${pattern} ESCAPE '\\'`;
}

/** Whether `substringFilter` matches exactly what `substringMatch` does for this term. */
export function canFilterRowByRow(dialect: Dialect, term: string): boolean {
  // SQLite's LIKE folds ASCII letters only, FTS5 folds Unicode: equal on printable ASCII
  return dialect === 'postgres' || /^[\x20-\x7e]+$/.test(term);
}
