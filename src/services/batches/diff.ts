// A crawl compared with another of its project (docs/sites.md, "Comparing crawls"): the pages
// read in URL-ordered chunks and kept as compact digests (src/crawl/diff.ts), the findings as
// stored when each batch ended. Computed once when a batch ends done (against the project's
// previous finished crawl) and stored; GET /batches/{id}/diff?from= computes against another.
// Custom extraction: the extractors both crawls have are compared by a key per page, and the
// values read again for the pages whose keys differ (src/crawl/diff-extracted.ts).
import {
  DEFAULT_REGRESSION_PAGE_SHARE,
  digestFacts,
  earlierPages,
  pageDigest,
  pagesDiff,
  type CheckTable,
  type CrawlDiff,
  type EarlierPages,
  type PageDigest,
} from '../../crawl/diff.js';
import {
  comparedExtractors,
  extractedKey,
  extractedPages,
  fillExtracted,
  storedDiff,
} from '../../crawl/diff-extracted.js';
import type { Extracted } from '../../crawl/extract.js';
import type { PageFacts } from '../../crawl/facts.js';
import type { Finding } from '../../crawl/findings/index.js';
import { validationError } from '../../errors.js';
import {
  diffPagesAfter,
  extractedOfPages,
  findBatchDiff,
  previousDoneBatch,
  saveBatchDiff,
} from '../../store/batch-diff.repository.js';
import { findBatch, findStoredFindings, type BatchRow } from '../../store/batches.repository.js';
import type { Db } from '../../store/database.js';
import { optionsOf, type BatchDeps } from './deps.js';
import { analyseBatch } from './results.js';

/** pages read at once: their facts (links included) are parsed, digested and let go */
const CHUNK = 1000;
/** … with their custom extraction values (up to 10 × 20 × 1,000 characters a page) */
const CHUNK_EXTRACTED = 200;
const ENDED = new Set(['done', 'cancelled', 'failed']);

export const pageShareOf = (d: BatchDeps): number =>
  d.ctx.config.regressionPageShare ?? DEFAULT_REGRESSION_PAGE_SHARE;

/**
 * A batch's pages as digests, read from the database in chunks and handed to `onPage` one at a
 * time; `names`: the custom extractors compared (their values read too, and kept as a key a page).
 */
async function readDigests(
  db: Db,
  batchId: number,
  checks: CheckTable,
  names: readonly string[],
  onPage: (p: PageDigest) => void,
): Promise<void> {
  const withValues = names.length > 0;
  // a page's failed checks' ids as one string: the same few sets recur page after page (a
  // template's), so one copy of each is kept — 100,000 digests hold ~7 MB less
  const failedSets = new Map<string, string>();
  for (let after = ''; ;) {
    const rows = await diffPagesAfter(db, batchId, after, withValues ? CHUNK_EXTRACTED : CHUNK, withValues);
    if (rows.length === 0) return;
    for (const r of rows) {
      // the stored digest; a page audited before digests were kept: its facts
      const facts =
        r.digest !== null
          ? digestFacts(r.digest)
          : r.facts === null
            ? null
            : (JSON.parse(r.facts) as PageFacts);
      const digest = pageDigest(
        {
          url: r.url,
          state: r.state,
          statusCode: r.statusCode,
          finalUrl: r.finalUrl,
          canonical: r.canonicalKey,
          extracted: r.extracted === null ? null : extractedKey(JSON.parse(r.extracted) as Extracted, names),
        },
        facts,
        checks,
      );
      if (digest === null) continue;
      const shared = failedSets.get(digest.failed);
      if (shared === undefined) failedSets.set(digest.failed, digest.failed);
      else digest.failed = shared;
      onPage(digest);
    }
    after = rows[rows.length - 1]!.url;
  }
}

/** The earlier crawl's pages, by URL (the later crawl's are compared with them as they are read). */
async function earlierOf(
  db: Db,
  batchId: number,
  checks: CheckTable,
  names: readonly string[],
): Promise<EarlierPages> {
  const pages: PageDigest[] = [];
  await readDigests(db, batchId, checks, names, (p) => pages.push(p));
  return earlierPages(pages);
}

/** An ended batch's findings: as stored when it ended, or (older batches) computed from its pages. */
async function findingsOf(db: Db, b: BatchRow, now: Date): Promise<Finding[]> {
  const stored = await findStoredFindings(db, b.id);
  return stored !== null
    ? (JSON.parse(stored) as Finding[])
    : (await analyseBatch(db, b, now, { compact: true })).findings;
}

const extractorsOf = (b: BatchRow): string[] => (optionsOf(b).extractors ?? []).map((e) => e.name);

/** The extractors two crawls are compared by (the names both have). */
const namesOf = (from: BatchRow | null, to: BatchRow): string[] =>
  from === null ? [] : comparedExtractors(extractorsOf(from), extractorsOf(to));

/** The values of the pages whose custom extraction changed, read from both crawls. */
async function withExtracted(db: Db, diff: CrawlDiff, fromId: number, toId: number): Promise<CrawlDiff> {
  const urls = extractedPages(diff);
  if (urls.length === 0) return diff;
  const parsed = (m: Map<string, string>) =>
    new Map([...m].map(([url, text]) => [url, JSON.parse(text) as Extracted]));
  fillExtracted(
    diff,
    parsed(await extractedOfPages(db, fromId, urls)),
    parsed(await extractedOfPages(db, toId, urls)),
  );
  return diff;
}

/**
 * The diff of a batch that is ending done, in its transaction, against the project's previous
 * finished crawl (none: `from` null), stored with the batch's site score.
 */
export async function storeEndingDiff(
  d: BatchDeps,
  trx: Db,
  b: BatchRow,
  ending: { findings: Finding[]; finishedAt: string },
): Promise<CrawlDiff> {
  const prevId = b.project === null ? null : await previousDoneBatch(trx, b.userId, b.project, b.id);
  const prev = prevId === null ? null : await findBatch(trx, prevId, null);
  const names = namesOf(prev, b);
  // each crawl's failed checks' titles: the ending crawl's first where both name a check
  const fromChecks: CheckTable = new Map();
  const toChecks: CheckTable = new Map();
  const pages = pagesDiff(prev === null ? null : await earlierOf(trx, prev.id, fromChecks, names));
  // its pages' digests read as the other side's are (the end holds no page by now)
  await readDigests(trx, b.id, toChecks, names, (p) => pages.add(p));
  const diff = pages.end(
    prev === null
      ? null
      : { id: prev.id, finishedAt: prev.finishedAt, findings: await findingsOf(trx, prev, d.ctx.now()) },
    { id: b.id, finishedAt: ending.finishedAt, findings: ending.findings },
    new Map([...fromChecks, ...toChecks]),
    { pageShare: pageShareOf(d), extracted: names },
  );
  if (prev !== null) await withExtracted(trx, diff, prev.id, b.id);
  await saveBatchDiff(trx, b.id, {
    diff: JSON.stringify(diff),
    siteScore: diff.summary.site.after?.score ?? null,
  });
  return diff;
}

/**
 * GET /batches/{id}/diff: `fromId` absent — the diff stored when the batch ended (one that
 * ended before diffs were stored, or cancelled or failed, is compared with the project's
 * previous finished crawl now); `fromId` — computed against that batch of the same project,
 * which must have ended (422 under `from` otherwise). A batch still running has no diff yet
 * (422 under `id`).
 */
export async function batchDiff(d: BatchDeps, b: BatchRow, fromId: number | undefined): Promise<CrawlDiff> {
  const { db } = d.ctx;
  if (!ENDED.has(b.status))
    throw validationError({
      id: ['The batch has not ended: it is compared with another crawl once it ends.'],
    });
  let from: BatchRow | null = null;
  if (fromId === undefined) {
    const stored = await findBatchDiff(db, b.id);
    if (stored?.diff) return storedDiff(stored.diff);
    const prevId = b.project === null ? null : await previousDoneBatch(db, b.userId, b.project, b.id);
    from = prevId === null ? null : await findBatch(db, prevId, null);
  } else {
    from = await findBatch(db, fromId, b.userId);
    if (from === null) throw validationError({ from: [`No batch ${fromId} of yours.`] });
    if (from.project !== b.project)
      throw validationError({
        from: [
          `Batch ${fromId} is a crawl of ${from.project ?? 'another site'}, not of ${b.project ?? 'this site'}.`,
        ],
      });
    if (!ENDED.has(from.status))
      throw validationError({
        from: [`Batch ${fromId} has not ended (${from.status}); only ended crawls compare.`],
      });
  }
  const checks: CheckTable = new Map();
  const names = namesOf(from, b);
  const pages = pagesDiff(from === null ? null : await earlierOf(db, from.id, checks, names));
  await readDigests(db, b.id, checks, names, (p) => pages.add(p));
  const diff = pages.end(
    from === null
      ? null
      : { id: from.id, finishedAt: from.finishedAt, findings: await findingsOf(db, from, d.ctx.now()) },
    { id: b.id, finishedAt: b.finishedAt, findings: await findingsOf(db, b, d.ctx.now()) },
    checks,
    { pageShare: pageShareOf(d), extracted: names },
  );
  return from === null ? diff : withExtracted(db, diff, from.id, b.id);
}

/** The project's latest finished crawl compared with the one before it (null: none finished). */
export async function latestProjectDiff(
  d: BatchDeps,
  userId: number,
  project: string,
): Promise<CrawlDiff | null> {
  const id = await previousDoneBatch(d.ctx.db, userId, project, null);
  const b = id === null ? null : await findBatch(d.ctx.db, id, userId);
  return b === null ? null : batchDiff(d, b, undefined);
}
