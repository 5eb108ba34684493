// A batch's link and resource checks (docs/sites.md "Links and resources checked"): each URL's
// answer written as soon as it is in (a check step taken up again skips them), all of them read
// by the findings, and the batch's external links (source page, target) from its link graph.
import type { Db } from './database.js';

export type CheckKind = 'internal' | 'resource' | 'external';
export type CheckVerdict = 'ok' | 'broken' | 'blocked' | 'unchecked';

export interface CheckRow {
  url: string;
  kind: CheckKind;
  verdict: CheckVerdict;
  status: number | null;
  error: string | null;
  /** where the request's redirects ended (null: it did not redirect) */
  redirectTo: string | null;
}

/** The URLs of the batch already checked. */
export async function checkedUrls(db: Db, batchId: number): Promise<Set<string>> {
  const rows = await db.selectFrom('batch_checks').select('url').where('batch_id', '=', batchId).execute();
  return new Set(rows.map((r) => r.url));
}

/** One URL's answer (a second write of the same URL is ignored: the first answer stands). */
export async function insertCheck(db: Db, batchId: number, c: CheckRow): Promise<void> {
  await db
    .insertInto('batch_checks')
    .values({
      batch_id: batchId,
      url: c.url,
      kind: c.kind,
      verdict: c.verdict,
      status: c.status,
      error: c.error,
      redirect_to: c.redirectTo,
    })
    .onConflict((oc) => oc.columns(['batch_id', 'url']).doNothing())
    .execute();
}

/** Every check of the batch. */
export async function listChecks(db: Db, batchId: number): Promise<CheckRow[]> {
  const rows = await db
    .selectFrom('batch_checks')
    .select(['url', 'kind', 'verdict', 'status', 'error', 'redirect_to'])
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
