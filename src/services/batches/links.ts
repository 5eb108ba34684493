// A batch's link graph (docs/sites.md "The link graph"): its links paged and filtered by the
// database, all of them in chunks for the CSV, and one URL's place in the graph. The batch is
// read first (the caller's organisation: another's is a 404), then the graph.
import { notFound } from '../../errors.js';
import type { Page } from '../../contract/lists.js';
import { crawlUrl } from '../../crawl/url.js';
import type { Db } from '../../store/database.js';
import {
  linkChunks,
  listLinks,
  pageLinkSummary,
  type LinkFilter,
  type LinkRow,
  type PageLinkSummary,
} from '../../store/batch-links.repository.js';

export type { PageLinkSummary } from '../../store/batch-links.repository.js';

/** One link as the service answers it. */
export type BatchLink = Omit<LinkRow, 'sourceId' | 'position'>;

/** The filters of GET /batches/{id}/links (validated by the contract's schema). */
export interface LinksQuery {
  source?: string;
  target?: string;
  /** `404`, a class `4xx`, or `none` */
  status?: string;
  internal?: boolean;
}

const link = ({ sourceId: _s, position: _p, ...l }: LinkRow): BatchLink => l;

/** A URL as the batch stores it (crawlUrl's normal form), or as given when it is not one. */
const normal = (u: string, tracking: readonly string[]) => crawlUrl(u, u, tracking) ?? u;

function filterOf(q: LinksQuery, tracking: readonly string[]): LinkFilter {
  const status =
    q.status === undefined
      ? undefined
      : q.status === 'none'
        ? ('none' as const)
        : q.status.endsWith('xx')
          ? { from: Number(q.status[0]) * 100, to: Number(q.status[0]) * 100 + 99 }
          : { from: Number(q.status), to: Number(q.status) };
  return {
    ...(q.source !== undefined ? { source: normal(q.source, tracking) } : {}),
    ...(q.target !== undefined ? { target: normal(q.target, tracking) } : {}),
    ...(status !== undefined ? { status } : {}),
    ...(q.internal !== undefined ? { internal: q.internal } : {}),
  };
}

export async function batchLinks(
  db: Db,
  batchId: number,
  q: LinksQuery,
  page: { page: number; perPage: number },
  tracking: readonly string[],
): Promise<Page<BatchLink>> {
  const r = await listLinks(db, batchId, filterOf(q, tracking), {
    limit: page.perPage,
    offset: (page.page - 1) * page.perPage,
  });
  return { items: r.items.map(link), total: r.total };
}

export async function* batchLinkChunks(
  db: Db,
  batchId: number,
  q: LinksQuery,
  tracking: readonly string[],
): AsyncGenerator<BatchLink[]> {
  for await (const rows of linkChunks(db, batchId, filterOf(q, tracking))) yield rows.map(link);
}

/** One URL's inlinks, outlinks, depth and top anchors; 404 when the batch has no such URL. */
export async function batchPageLinks(
  db: Db,
  batchId: number,
  url: string,
  tracking: readonly string[],
): Promise<PageLinkSummary> {
  const summary = await pageLinkSummary(db, batchId, normal(url, tracking));
  if (summary === null)
    throw notFound('No such URL in this batch: neither a page of it nor a link of its pages.');
  return summary;
}
