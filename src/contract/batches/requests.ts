// The batch request schemas both web layers validate with (TypeBox): the API's routes
// (src/http/routes/batches) and the dashboard's batch pages (src/pages/routes/batches.ts);
// how a form body is read into them is src/web/batches.ts.
import { Type, type Static } from 'typebox';
import { RESULTS } from '../../analyzer/types.js';
import { enumOf } from '../common.js';
import { pageParam, PER_PAGE, SORT_DIRECTIONS } from '../lists.js';
import { MAX_ID } from '../common.js';
import {
  DEFAULT_MAX_EXTERNAL_CHECKS,
  DEFAULT_MAX_SITE_CHECKS,
  MAX_EXTERNAL_CHECKS,
  MAX_SITE_CHECKS,
} from '../../crawl/defaults.js';
import { findingSettingsFields } from '../finding-settings.js';

export const BATCH_MODES = ['sitemap', 'crawl', 'list'] as const;

export const BatchParams = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: MAX_ID, description: 'Batch id (anything else answers 404).' }),
});

const httpUrl = (description: string) =>
  Type.String({ minLength: 1, maxLength: 2048, pattern: '^\\s*[Hh][Tt][Tt][Pp][Ss]?://', description });
const patterns = (description: string) =>
  Type.Array(Type.String({ minLength: 1, maxLength: 512 }), { maxItems: 50, description });

/** A custom extractor (docs/sites.md, "Custom extraction"); the service checks the expressions. */
export const ExtractorBody = Type.Object(
  {
    name: Type.String({
      minLength: 1,
      maxLength: 40,
      description:
        'The column it makes (exports, the pages table): letters, digits, spaces, `_`, `-`, `.`; unique in the list.',
    }),
    css: Type.Optional(Type.String({ minLength: 1, maxLength: 1000, description: 'A CSS selector.' })),
    xpath: Type.Optional(
      Type.String({ minLength: 1, maxLength: 1000, description: 'An XPath 1.0 expression over the HTML.' }),
    ),
    regex: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 1000,
        description:
          'A regular expression (RE2 syntax, linear time) over the raw HTML: its first capture group, or the whole match.',
      }),
    ),
    attribute: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: "css and xpath: the matched element's attribute instead of its text.",
      }),
    ),
    all: Type.Optional(
      Type.Boolean({ description: 'Every match (an array, at most 20), not only the first (default false).' }),
    ),
  },
  {
    additionalProperties: false,
    description: 'Exactly one of css, xpath or regex.',
    examples: [{ name: 'price', css: '.price' }],
  },
);

export const extractorsField = () =>
  Type.Array(ExtractorBody, {
    maxItems: 10,
    description:
      'Custom extraction: at most 10 extractors, each page\'s values stored with it and shown as columns of the exports and the pages table (docs/sites.md, "Custom extraction").',
  });

export const CreateBatchBody = Type.Object(
  {
    url: httpUrl(
      'sitemap: the sitemap or sitemap index (or the site root: its robots.txt `Sitemap:` lines, else /sitemap.xml); crawl: the start page; list: the site (its robots.txt applies).',
    ),
    mode: enumOf('string', BATCH_MODES, { description: 'sitemap, crawl or list.' }),
    urls: Type.Optional(
      Type.Array(httpUrl('A page of the list.'), {
        minItems: 1,
        maxItems: 1000,
        description: 'mode list: the pages.',
      }),
    ),
    max_pages: Type.Optional(
      Type.Integer({
        minimum: 1,
        description:
          'At most this many pages (default 100; at most PAGEGRADE_BATCH_MAX_PAGES, default 10000).',
      }),
    ),
    max_depth: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 100,
        description: 'crawl: links followed this many hops from the start (default 10).',
      }),
    ),
    include: Type.Optional(
      patterns('Only URLs matching one of these (`*` any characters; a leading `^` anchors).'),
    ),
    exclude: Type.Optional(patterns('No URL matching one of these.')),
    privacy: Type.Optional(
      enumOf('integer', [0, 1], { description: "The reports' privacy: 0 public (default), 1 private." }),
    ),
    render: Type.Optional(
      enumOf('integer', [0, 1], {
        default: 0,
        description:
          '1 (or true): every page is a rendered audit, as `render=1` on a report — rendered in headless Chromium, `results` of the rendered DOM, `render` listing what JavaScript changed; a crawl also follows the links JavaScript made (docs/rendering.md). Without Chromium: 422 under `errors.render`, and nothing is queued.',
      }),
    ),
    extractors: Type.Optional(extractorsField()),
    check_external: Type.Optional(
      enumOf('integer', [0, 1], {
        default: 0,
        description:
          '1 (or true): the links to other sites, and resources on other hosts, are checked once each at the end of the batch (one request at a time per host, robots.txt obeyed): broken_external_links, redirected_external_links, blocked_external_links (docs/sites.md). Default 0: no request to another host.',
      }),
    ),
    max_external_checks: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_EXTERNAL_CHECKS,
        description: `check_external: at most this many URLs of other hosts checked (default ${DEFAULT_MAX_EXTERNAL_CHECKS}; 1 to ${MAX_EXTERNAL_CHECKS}); the others are listed as not checked.`,
      }),
    ),
    max_site_checks: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_SITE_CHECKS,
        description: `At most this many of the site's own URLs checked at the end of the batch — link targets outside the crawl, resources, fonts its stylesheets name (default ${DEFAULT_MAX_SITE_CHECKS}; 1 to ${MAX_SITE_CHECKS}); resources first, then links, each in URL order; the others are listed as not checked.`,
      }),
    ),
    ...findingSettingsFields(),
  },
  {
    examples: [
      { url: 'https://example.com/', mode: 'crawl', max_pages: 500, max_depth: 5, exclude: ['/tag/*'] },
      { url: 'https://example.com/sitemap.xml', mode: 'sitemap' },
      { url: 'https://app.example.com/', mode: 'crawl', max_pages: 200, render: 1 },
      {
        url: 'https://shop.example.com/',
        mode: 'crawl',
        extractors: [
          { name: 'price', css: '.price' },
          { name: 'sku', xpath: '//*[@itemprop="sku"]', attribute: 'content' },
          { name: 'gtm', regex: 'GTM-([A-Z0-9]+)' },
        ],
      },
    ],
  },
);

export type CreateBatchBody = Static<typeof CreateBatchBody>;

export const BATCH_PAGE_STATES = ['done', 'failed', 'skipped', 'queued', 'fetching'] as const;
export const BATCH_PAGE_SORT_KEYS = ['found', 'url', 'score', 'result', 'status'] as const;

/** The batch page's table of pages (the dashboard reads it the forgiving way, list-filters.ts). */
export const ListBatchPagesQuery = Type.Object({
  search: Type.Optional(
    Type.String({ maxLength: 2048, description: 'Case-insensitive substring of the URL.' }),
  ),
  state: Type.Optional(enumOf('string', BATCH_PAGE_STATES, { description: 'Only the pages in this state.' })),
  result: Type.Optional(
    enumOf('string', RESULTS, { description: 'Only the audited pages with this result.' }),
  ),
  sort_by: Type.Optional(
    enumOf('string', BATCH_PAGE_SORT_KEYS, {
      default: 'found',
      description: 'found: the order the batch found them; result orders good, decent, bad (asc).',
    }),
  ),
  sort: Type.Optional(enumOf('string', SORT_DIRECTIONS, { default: 'asc', description: 'Sort direction.' })),
  per_page: Type.Optional(enumOf('integer', PER_PAGE, { default: 25, description: 'Pages per page.' })),
  page: Type.Optional(pageParam()),
});
export type ListBatchPagesQuery = Static<typeof ListBatchPagesQuery>;

/** The batches list (GET /api/v1/batches, /dashboard/batches). */
export const ListBatchesQuery = Type.Object({
  per_page: Type.Optional(enumOf('integer', PER_PAGE, { default: 10, description: 'Items per page.' })),
  page: Type.Optional(pageParam()),
});
