// The batch page's table of pages (docs/sites.md): a batch's pages filtered, sorted and paged
// in memory — a batch holds at most PAGEGRADE_BATCH_MAX_PAGES pages, and the batch page reads
// them all anyway for the site-level findings (services.batches.results).
import type { ResultBand } from '../analyzer/types.js';
import type { BatchPageResult } from '../services/batches/types.js';
import type { Page } from '../contract/lists.js';

export interface BatchPagesQuery {
  search?: string;
  state?: BatchPageResult['state'];
  result?: ResultBand;
  sortBy?: 'found' | 'url' | 'score' | 'result' | 'status';
  sort?: 'asc' | 'desc';
  perPage?: number;
  page?: number;
}

const RESULT_ORDER: Record<ResultBand, number> = { good: 0, decent: 1, bad: 2 };

/** `pages` in the order found; pages without a value for the sort key go last either way. */
export function batchPageTable(pages: readonly BatchPageResult[], q: BatchPagesQuery): Page<BatchPageResult> {
  const search = q.search?.toLowerCase();
  const rows = pages
    .map((p, i) => ({ p, i }))
    .filter(
      ({ p }) =>
        (search === undefined || p.url.toLowerCase().includes(search)) &&
        (q.state === undefined || p.state === q.state) &&
        (q.result === undefined || (p.state === 'done' && p.facts?.result === q.result)),
    );
  const sortBy = q.sortBy ?? 'found';
  const dir = q.sort === 'desc' ? -1 : 1;
  const key = (p: BatchPageResult): number | string | null => {
    if (sortBy === 'url') return p.url;
    if (sortBy === 'status') return p.statusCode;
    if (p.state !== 'done' || !p.facts) return null;
    return sortBy === 'score' ? p.facts.score : RESULT_ORDER[p.facts.result];
  };
  if (sortBy !== 'found' || dir === -1) {
    rows.sort((a, b) => {
      if (sortBy !== 'found') {
        const ka = key(a.p);
        const kb = key(b.p);
        if (ka === null && kb !== null) return 1;
        if (kb === null && ka !== null) return -1;
        if (ka !== null && kb !== null && ka !== kb) return (ka < kb ? -1 : 1) * dir;
      }
      // ties (and sort_by=found) in the order found, in the same direction
      return (a.i - b.i) * dir;
    });
  }
  const perPage = q.perPage ?? 25;
  const page = q.page ?? 1;
  return { items: rows.slice((page - 1) * perPage, page * perPage).map((r) => r.p), total: rows.length };
}
