// The link graph's tables (migration 2026-12-03T01-batch-links; docs/sites.md "The link graph").
import type { ColumnType, Generated } from 'kysely';

/** Every URL a batch's pages link to, once per batch: the integer id its links name. */
export interface BatchLinkUrlsTable {
  id: Generated<number>;
  batch_id: number;
  url: string;
}

/** One link of an audited page: the page (batch_pages.id), its position, the target (batch_link_urls.id). */
export interface BatchLinksTable {
  batch_id: number;
  source_id: number;
  position: number;
  target_id: number;
  /** the anchor text (an image's alt inside it), whitespace collapsed, cut at MAX_ANCHOR_CHARS */
  anchor: string;
  /** the rel tokens, space-separated; null when none */
  rel: string | null;
  nofollow: number;
  internal: number;
}

/** One URL a batch checked besides its pages (migration 2026-12-04T01-batch-checks; docs/sites.md "Links and resources checked"). */
export interface BatchChecksTable {
  batch_id: number;
  url: string;
  /** internal, resource, external or font (named by a stylesheet) */
  kind: string;
  /** ok, broken, blocked or unchecked; pending: a font found in a stylesheet, not asked yet */
  verdict: string;
  status: number | null;
  error: string | null;
  redirect_to: string | null;
  /** a font's row: the stylesheets that name it, JSON (migration 2026-12-06T01-batch-check-via); else null */
  via: ColumnType<string | null, string | null | undefined, string | null>;
}
