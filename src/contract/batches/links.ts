// A batch's link graph in the API (docs/sites.md "The link graph"): GET
// /api/v1/batches/{id}/links (paged, filtered; `format=csv` the whole graph as CSV) and GET
// /api/v1/batches/{id}/links/page?url= (one URL's inlinks, outlinks, depth and top anchors).
import { stringify } from 'csv-stringify';
import type { Readable } from 'node:stream';
import { Type, type Static } from 'typebox';
import { enumOf, nullable, withExample } from '../common.js';
import { PER_PAGE, pageParam } from '../lists.js';
import { listExample, paginated } from '../pagination.js';
import type { LinkRow, PageLinkSummary } from '../../store/batch-links.repository.js';

const url = (description: string) => Type.String({ minLength: 1, maxLength: 2048, description });

export const ListLinksQuery = Type.Object({
  per_page: Type.Optional(enumOf('integer', PER_PAGE, { default: 25, description: 'Items per page.' })),
  page: Type.Optional(pageParam()),
  source: Type.Optional(url('Only the links of this page (its URL as the batch has it).')),
  target: Type.Optional(url('Only the links to this URL (normal form: no fragment, no tracking parameters).')),
  status: Type.Optional(
    Type.String({
      pattern: '^(?:[1-5]xx|[1-5][0-9]{2}|none)$',
      description:
        "The target's HTTP status as the batch fetched it: one (`404`), a class (`4xx`), or `none` (not fetched, or no answer).",
    }),
  ),
  internal: Type.Optional(
    enumOf('string', ['true', 'false'], { description: '`true`: links within the site; `false`: links elsewhere.' }),
  ),
  format: Type.Optional(
    enumOf('string', ['json', 'csv'], {
      default: 'json',
      description: '`csv`: every link that matches (no paging), as an attachment.',
    }),
  ),
});
export type ListLinksQuery = Static<typeof ListLinksQuery>;

export const Link = Type.Object(
  {
    source: Type.String({ description: 'The page the link is on.' }),
    target: Type.String(),
    anchor: Type.String({ description: 'The anchor text (an image’s alt inside it), cut at 100 characters.' }),
    rel: nullable(Type.String({ description: 'The rel tokens, space-separated.' })),
    nofollow: Type.Boolean(),
    internal: Type.Boolean({ description: 'The target is on the site (the start URL’s host or its www. twin).' }),
    target_status: nullable(
      Type.Integer({ description: "The target's HTTP status in this batch; null: not fetched, or no answer." }),
    ),
  },
  {
    examples: [
      {
        source: 'https://example.com/',
        target: 'https://example.com/pricing',
        anchor: 'Pricing',
        rel: null,
        nofollow: false,
        internal: true,
        target_status: 200,
      },
    ],
  },
);
export type Link = Static<typeof Link>;

export const LINK_LIST_EXAMPLE = {
  data: [(Link as unknown as { examples: unknown[] }).examples[0]],
  ...listExample('https://pagegrade.example/api/v1/batches/7/links'),
};
export const LinkList = withExample(paginated(Link), LINK_LIST_EXAMPLE);

export const PageLinksQuery = Type.Object({ url: url('The URL (a page of the batch, or a URL its pages link to).') });

const PageLinks = Type.Object({
  url: Type.String(),
  depth: nullable(Type.Integer({ description: 'Links from the start page (0); null: not a page of the batch.' })),
  state: nullable(Type.String({ enum: ['queued', 'fetching', 'done', 'failed', 'skipped'] })),
  status_code: nullable(Type.Integer()),
  inlinks: Type.Integer({ description: 'Links to it from other pages of the batch.' }),
  inlinking_pages: Type.Integer({ description: 'The pages those links are on.' }),
  outlinks: Type.Integer({ description: 'Its own links (0 when it is not an audited page).' }),
  internal_outlinks: Type.Integer(),
  external_outlinks: Type.Integer(),
  top_anchors: Type.Array(Type.Object({ text: Type.String(), count: Type.Integer() }), {
    description: 'The anchor texts of its inlinks, most used first (at most 10).',
  }),
});
export const PageLinksEnvelope = withExample(Type.Object({ data: PageLinks }), {
  data: {
    url: 'https://example.com/pricing',
    depth: 1,
    state: 'done',
    status_code: 200,
    inlinks: 42,
    inlinking_pages: 40,
    outlinks: 18,
    internal_outlinks: 15,
    external_outlinks: 3,
    top_anchors: [
      { text: 'Pricing', count: 38 },
      { text: 'See our plans', count: 4 },
    ],
  },
});
export type PageLinks = Static<typeof PageLinks>;

/** The columns of the link graph's CSV, one row per link. */
export const LINK_CSV_COLUMNS = ['source', 'target', 'anchor', 'rel', 'nofollow', 'internal', 'target_status'] as const;

export const LINKS_CSV_EXAMPLE =
  `${LINK_CSV_COLUMNS.join(',')}\n` + 'https://example.com/,https://example.com/pricing,Pricing,,false,true,200\n';

/** The CSV as a stream: a header line, then one row per link as the chunks come. */
export function linksCsv(chunks: AsyncIterable<Omit<LinkRow, 'sourceId' | 'position'>[]>): Readable {
  const out = stringify({ header: true, columns: [...LINK_CSV_COLUMNS], cast: { boolean: (b) => String(b) } });
  (async () => {
    for await (const chunk of chunks)
      for (const l of chunk)
        if (!out.write([l.source, l.target, l.anchor, l.rel, l.nofollow, l.internal, l.targetStatus]))
          await new Promise((r) => out.once('drain', r));
    out.end();
  })().catch((err: unknown) => out.destroy(err instanceof Error ? err : new Error(String(err))));
  return out;
}

/** A link as the API shows it. */
export const presentLink = (l: Omit<LinkRow, 'sourceId' | 'position'>): Link => ({
  source: l.source,
  target: l.target,
  anchor: l.anchor,
  rel: l.rel,
  nofollow: l.nofollow,
  internal: l.internal,
  target_status: l.targetStatus,
});

/** One URL's place in the graph as the API shows it. */
export const presentPageLinks = (s: PageLinkSummary): PageLinks => ({
  url: s.url,
  depth: s.page?.depth ?? null,
  state: (s.page?.state as PageLinks['state']) ?? null,
  status_code: s.page?.statusCode ?? null,
  inlinks: s.inlinks,
  inlinking_pages: s.inlinkingPages,
  outlinks: s.outlinks,
  internal_outlinks: s.internalOutlinks,
  external_outlinks: s.externalOutlinks,
  top_anchors: s.topAnchors,
});
