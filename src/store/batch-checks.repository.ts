// A batch's link and resource checks (docs/sites.md "Links and resources checked"): each URL's
// answer written as soon as it is in (a check step taken up again skips them), all of them read
// by the findings, and the batch's external links (source page, target) from its link graph.
// A font a stylesheet names is written when it is found (`pending`, with the stylesheets that
// name it in `via`), then its answer over it.
import type { Db } from './database.js';

/** font and stylesheet: named by a stylesheet (@font-face, @import), not by a page */
export type CheckKind = 'internal' | 'resource' | 'external' | 'font' | 'stylesheet';
export type CheckVerdict = 'ok' | 'broken' | 'blocked' | 'unchecked' | 'pending';

export interface CheckRow {
  url: string;
  kind: CheckKind;
  verdict: CheckVerdict;
  status: number | null;
  error: string | null;
  /** where the request's redirects ended (null: it did not redirect) */
  redirectTo: string | null;
  /** a font's row: the stylesheets that name it (null: none, or a batch checked before it) */
  via?: string[] | null;
}

/** rows written by one statement (7 values each: within SQLite's and PostgreSQL's limits) */
const INSERT_CHUNK = 500;

/** The URLs of the batch stored already: each one's kind, verdict, and the stylesheets naming it. */
export async function storedChecks(
  db: Db,
  batchId: number,
): Promise<Map<string, { kind: CheckKind; verdict: CheckVerdict; via: string[] | null }>> {
  const rows = await db
    .selectFrom('batch_checks')
    .select(['url', 'kind', 'verdict', 'via'])
    .where('batch_id', '=', batchId)
    .execute();
  return new Map(
    rows.map((r) => [
      r.url,
      {
        kind: r.kind as CheckKind,
        verdict: r.verdict as CheckVerdict,
        via: r.via === null ? null : viaOf(r.via),
      },
    ]),
  );
}

const viaOf = (text: string): string[] => {
  try {
    const v = JSON.parse(text) as unknown;
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
};

/**
 * URLs' answers, in statements of INSERT_CHUNK rows. A URL stored already keeps its first
 * answer — unless that row is `pending` (a font found, not asked yet): the answer replaces it,
 * its kind and `via` kept.
 */
export async function insertChecks(db: Db, batchId: number, rows: readonly CheckRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    await db
      .insertInto('batch_checks')
      .values(
        rows.slice(i, i + INSERT_CHUNK).map((c) => ({
          batch_id: batchId,
          url: c.url,
          kind: c.kind,
          verdict: c.verdict,
          status: c.status,
          error: c.error,
          redirect_to: c.redirectTo,
          via: c.via && c.via.length > 0 ? JSON.stringify(c.via) : null,
        })),
      )
      .onConflict((oc) =>
        oc
          .columns(['batch_id', 'url'])
          .doUpdateSet((eb) => ({
            verdict: eb.ref('excluded.verdict'),
            status: eb.ref('excluded.status'),
            error: eb.ref('excluded.error'),
            redirect_to: eb.ref('excluded.redirect_to'),
          }))
          .where('batch_checks.verdict', '=', 'pending'),
      )
      .execute();
  }
}

/** The stylesheets that name a font stored already (its row's `via`, replaced whole). */
export async function setCheckVia(
  db: Db,
  batchId: number,
  url: string,
  via: readonly string[],
): Promise<void> {
  await db
    .updateTable('batch_checks')
    .set({ via: JSON.stringify(via) })
    .where('batch_id', '=', batchId)
    .where('url', '=', url)
    .execute();
}

/** Every check of the batch. */
export async function listChecks(db: Db, batchId: number): Promise<CheckRow[]> {
  const rows = await db
    .selectFrom('batch_checks')
    .select(['url', 'kind', 'verdict', 'status', 'error', 'redirect_to', 'via'])
    .where('batch_id', '=', batchId)
    .orderBy('url')
    .execute();
  return rows.map((r) => ({
    url: r.url,
    kind: r.kind as CheckKind,
    verdict: r.verdict as CheckVerdict,
    status: r.status,
    error: r.error,
    redirectTo: r.redirect_to,
    via: r.via === null ? null : viaOf(r.via),
  }));
}

/** The batch's links to other sites: each (page, target) once, in page order. */
export async function externalLinks(db: Db, batchId: number): Promise<{ source: string; target: string }[]> {
  const rows = await db
    .selectFrom('batch_links as l')
    .innerJoin('batch_pages as s', 's.id', 'l.source_id')
    .innerJoin('batch_link_urls as u', 'u.id', 'l.target_id')
    .select(['s.url as source', 'u.url as target'])
    .where('l.batch_id', '=', batchId)
    .where('l.internal', '=', 0)
    .orderBy('l.source_id')
    .orderBy('l.position')
    .execute();
  const seen = new Set<string>();
  return rows.filter((r) => {
    const k = `${r.source}\u0000${r.target}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** The distinct URLs the batch's pages link to on other sites. */
export async function externalTargets(db: Db, batchId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('batch_link_urls as u')
    .select('u.url')
    .where('u.batch_id', '=', batchId)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('batch_links as l')
          .select('l.target_id')
          .where('l.batch_id', '=', batchId)
          .whereRef('l.target_id', '=', 'u.id')
          .where('l.internal', '=', 0),
      ),
    )
    .execute();
  return rows.map((r) => r.url);
}
