// A project's page and settings (docs/sites.md, "Projects as sites"): the body of
// PUT/PATCH /api/v1/projects/{project} (unknown fields are refused, a setting misspelt must not
// crawl with a default), the settings as answered (secrets never: only which are set), and the
// project with its latest crawl and site score.
import { Type, type Static, type TSchema } from 'typebox';
import { RESULTS } from '../analyzer/types.js';
import { BATCH_MODES, ExtractorBody, extractorsField } from './batches/requests.js';
import {
  DEFAULT_MAX_EXTERNAL_CHECKS,
  DEFAULT_MAX_SITE_CHECKS,
  MAX_EXTERNAL_CHECKS,
  MAX_SITE_CHECKS,
} from '../crawl/defaults.js';
import { Batch } from './batches/schemas.js';
import { findingSettingsFields } from './finding-settings.js';
import { dateTime, enumOf, nullable } from './common.js';
import { presentBatch } from './batches/present.js';
import { presentProject, type ProjectSummary } from './projects.js';
import { project } from './projects.js';
import type { Batch as BatchInput } from './batches/present.js';

const httpUrl = (description: string) =>
  Type.String({ minLength: 1, maxLength: 2048, pattern: '^\\s*[Hh][Tt][Tt][Pp][Ss]?://', description });
const patterns = (description: string) =>
  Type.Array(Type.String({ minLength: 1, maxLength: 512 }), { maxItems: 50, description });
const secretMap = (what: string) =>
  Type.Record(Type.String(), Type.String({ maxLength: 4096 }), {
    description: `${what} sent with every request of a crawl: name → value. The values are secrets: stored encrypted (PAGEGRADE_SECRET_KEY), never answered. At most 50.`,
  });

/** null first: the validator then takes a null as null, never coerced to "" or 0 */
const orNull = <T extends TSchema>(s: T) => Type.Union([Type.Null(), s]);

const Schedule = Type.Object(
  {
    every: Type.String({
      minLength: 1,
      maxLength: 120,
      description: 'hourly, daily, weekly or a 5-field cron expression.',
    }),
    timezone: Type.Optional(Type.String({ maxLength: 64, description: 'IANA time zone (default UTC).' })),
  },
  { additionalProperties: false },
);

/** An ignore rule as a request gives it (PUT/PATCH `ignore`, POST …/ignore-rules). */
export const IgnoreRuleBody = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 100, description: 'A check id or a site finding id.' }),
    url_pattern: Type.Optional(
      Type.String({
        maxLength: 512,
        description:
          'Glob over the page URL: a path and query starting with / (`/blog/*`), or a whole URL (`https://example.com/blog/*`); `*` is any characters. Empty (default) = every page.',
      }),
    ),
    reason: Type.String({ minLength: 1, maxLength: 500 }),
    expires_at: Type.Optional(
      orNull(Type.String({ format: 'date-time', description: 'After this, the rule no longer applies.' })),
    ),
    rule_id: Type.Optional(
      Type.String({
        maxLength: 64,
        description: "As answered (a rule sent back as it was): not read, a rule's id is derived from it.",
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [{ id: 'meta_description', url_pattern: '/blog/*', reason: 'The blog has no descriptions.' }],
  },
);
export type IgnoreRuleBody = Static<typeof IgnoreRuleBody>;

/** An ignore rule as answered. */
export const IgnoreRule = Type.Object(
  {
    rule_id: Type.String({ description: 'The rule\'s id (DELETE …/ignore-rules/{rule_id}).' }),
    id: Type.String(),
    url_pattern: Type.String(),
    reason: Type.String(),
    expires_at: nullable(Type.String({ format: 'date-time' })),
  },
  { additionalProperties: false },
);
export type IgnoreRule = Static<typeof IgnoreRule>;

/** PUT (every setting; those left out take their defaults) and PATCH (only those given). */
export const ProjectSettingsBody = Type.Object(
  {
    start_url: Type.Optional(orNull(httpUrl("Where a crawl starts (on the project's host)."))),
    mode: Type.Optional(enumOf('string', BATCH_MODES, { description: 'crawl (default), sitemap or list.' })),
    urls: Type.Optional(
      Type.Array(httpUrl('A page of the list.'), { maxItems: 1000, description: 'mode list: the pages.' }),
    ),
    max_pages: Type.Optional(
      Type.Integer({ minimum: 1, description: 'Default 100; at most PAGEGRADE_BATCH_MAX_PAGES.' }),
    ),
    max_depth: Type.Optional(Type.Integer({ minimum: 0, maximum: 100, description: 'Default 10.' })),
    include: Type.Optional(patterns('Only URLs matching one of these.')),
    exclude: Type.Optional(patterns('No URL matching one of these.')),
    render: Type.Optional(enumOf('integer', [0, 1], { description: '1: every page is a rendered audit.' })),
    check_external: Type.Optional(
      enumOf('integer', [0, 1], {
        description: "1: the links to other sites (and resources on other hosts) are checked in the project's crawls. Default 0.",
      }),
    ),
    max_external_checks: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_EXTERNAL_CHECKS,
        description: `check_external: at most this many URLs of other hosts checked per crawl (default ${DEFAULT_MAX_EXTERNAL_CHECKS}).`,
      }),
    ),
    max_site_checks: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_SITE_CHECKS,
        description: `At most this many of the site's own URLs (link targets outside the crawl, resources, fonts) checked per crawl (default ${DEFAULT_MAX_SITE_CHECKS}).`,
      }),
    ),
    ...findingSettingsFields(),
    default_privacy: Type.Optional(
      enumOf('integer', [0, 1], { description: "New pages' reports: 0 public (default), 1 private." }),
    ),
    schedule: Type.Optional(orNull(Schedule)),
    headers: Type.Optional(secretMap('Request headers')),
    cookies: Type.Optional(secretMap('Cookies')),
    basic_auth: Type.Optional(
      orNull(
        Type.Object(
          {
            username: Type.String({ minLength: 1, maxLength: 255 }),
            password: Type.String({ minLength: 1, maxLength: 1024 }),
          },
          { additionalProperties: false, description: 'HTTP basic auth; the password is a secret.' },
        ),
      ),
    ),
    ignore: Type.Optional(Type.Array(IgnoreRuleBody, { maxItems: 200 })),
    extractors: Type.Optional(extractorsField()),
  },
  {
    additionalProperties: false,
    examples: [
      {
        start_url: 'https://example.com/',
        mode: 'crawl',
        max_pages: 500,
        exclude: ['/tag/*'],
        schedule: { every: 'weekly', timezone: 'Europe/Paris' },
        headers: { 'X-Staging-Token': 's3cret' },
        basic_auth: { username: 'staging', password: 'hunter2' },
      },
    ],
  },
);
export type ProjectSettingsBody = Static<typeof ProjectSettingsBody>;

const SetSecret = Type.Object(
  { name: Type.String(), set: Type.Literal(true) },
  { additionalProperties: false },
);

export const ProjectSettings = Type.Object(
  {
    start_url: nullable(Type.String()),
    mode: Type.String({ enum: [...BATCH_MODES] }),
    urls: Type.Array(Type.String()),
    max_pages: Type.Integer({ minimum: 1 }),
    max_depth: Type.Integer({ minimum: 0 }),
    include: Type.Array(Type.String()),
    exclude: Type.Array(Type.String()),
    render: Type.Integer({ enum: [0, 1] }),
    check_external: Type.Integer({ enum: [0, 1] }),
    max_external_checks: Type.Integer({ minimum: 1 }),
    max_site_checks: Type.Integer({ minimum: 1 }),
    thin_content_words: Type.Integer({ minimum: 1 }),
    near_duplicate_threshold: Type.Integer({ minimum: 1 }),
    deep_page_depth: Type.Integer({ minimum: 1 }),
    default_privacy: Type.Integer({ enum: [0, 1] }),
    schedule: nullable(
      Type.Object({ every: Type.String(), timezone: Type.String() }, { additionalProperties: false }),
    ),
    headers: Type.Array(SetSecret, { description: 'The headers set (their values are never answered).' }),
    cookies: Type.Array(SetSecret, { description: 'The cookies set (their values are never answered).' }),
    basic_auth: nullable(
      Type.Object(
        { username: Type.String(), password_set: Type.Literal(true) },
        { additionalProperties: false },
      ),
    ),
    ignore: Type.Array(IgnoreRule),
    extractors: Type.Array(ExtractorBody, {
      description: "The custom extractors of the project's crawls (docs/sites.md, \"Custom extraction\").",
    }),
  },
  { additionalProperties: false },
);
export type ProjectSettings = Static<typeof ProjectSettings>;

export const settingsExample: ProjectSettings = {
  start_url: 'https://example.com/',
  mode: 'crawl',
  urls: [],
  max_pages: 500,
  max_depth: 10,
  include: [],
  exclude: ['/tag/*'],
  render: 0,
  check_external: 0,
  max_external_checks: 500,
  max_site_checks: 5000,
  thin_content_words: 200,
  near_duplicate_threshold: 90,
  deep_page_depth: 4,
  default_privacy: 0,
  schedule: { every: 'weekly', timezone: 'Europe/Paris' },
  headers: [{ name: 'X-Staging-Token', set: true }],
  cookies: [],
  basic_auth: { username: 'staging', password_set: true },
  ignore: [],
  extractors: [{ name: 'price', css: '.price' }],
};

const bandCounts = Type.Object(
  {
    good: Type.Integer({ minimum: 0 }),
    decent: Type.Integer({ minimum: 0 }),
    bad: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);

/** One finished crawl of the project's trend (from the summary stored when it ended). */
const TrendPoint = Type.Object(
  {
    batch_id: Type.Integer({ minimum: 1 }),
    finished_at: nullable(Type.String({ format: 'date-time' })),
    site_score: nullable(
      Type.Integer({
        minimum: 0,
        maximum: 100,
        description: "The mean of the crawl's audited pages' scores, as audited then; null when none.",
      }),
    ),
    band: nullable(Type.String({ enum: [...RESULTS] })),
    pages_audited: Type.Integer({ minimum: 0 }),
    bands: bandCounts,
    findings: Type.Array(
      Type.Object(
        { id: Type.String(), title: Type.String(), count: Type.Integer({ minimum: 0 }) },
        { additionalProperties: false },
      ),
      { description: 'The site-level findings of the crawl, with how many pages (or groups) each concerns.' },
    ),
  },
  { additionalProperties: false },
);

export const ProjectDetail = Type.Object(
  {
    project: Type.String(),
    created_at: dateTime('When the project was created (its first report, or PUT).'),
    reports_count: Type.Integer({ minimum: 0 }),
    latest_crawl: nullable(Batch),
    site_score: nullable(
      Type.Integer({
        minimum: 0,
        maximum: 100,
        description: "The mean of the audited pages' scores of the newest finished crawl.",
      }),
    ),
    band: nullable(Type.String({ enum: [...RESULTS] })),
    settings: ProjectSettings,
    trend: Type.Array(TrendPoint, {
      description:
        "The project's newest finished (done) crawls, at most 30, oldest first: each crawl's site score, pages by band and findings.",
    }),
  },
  { additionalProperties: false },
);
export type ProjectDetail = Static<typeof ProjectDetail>;

const batchExample = (Batch as unknown as { examples: Static<typeof Batch>[] }).examples[0]!;

export const ProjectDetailEnvelope = Type.Object(
  { data: ProjectDetail },
  {
    additionalProperties: false,
    examples: [
      {
        data: {
          ...project,
          latest_crawl: { ...batchExample, status: 'done' },
          site_score: 84,
          band: 'decent',
          settings: settingsExample,
          trend: [
            {
              batch_id: 11,
              finished_at: '2026-11-18T09:12:40.000Z',
              site_score: 79,
              band: 'decent',
              pages_audited: 42,
              bands: { good: 20, decent: 15, bad: 7 },
              findings: [
                {
                  id: 'broken_links',
                  title: 'Internal links to pages that answered 4xx/5xx or could not be fetched',
                  count: 3,
                },
              ],
            },
            {
              batch_id: 12,
              finished_at: '2026-11-25T09:10:02.000Z',
              site_score: 84,
              band: 'decent',
              pages_audited: 42,
              bands: { good: 26, decent: 12, bad: 4 },
              findings: [],
            },
          ],
        },
      },
    ],
  },
);

/** The project's page as the API answers it (the service's ProjectDetail). */
export function presentProjectDetail(
  d: {
    project: ProjectSummary;
    latestCrawl: BatchInput | null;
    siteScore: number | null;
    band: (typeof RESULTS)[number] | null;
    settings: ProjectSettings;
    trend: {
      batchId: number;
      finishedAt: string | null;
      siteScore: number | null;
      band: (typeof RESULTS)[number] | null;
      audited: number;
      bands: { good: number; decent: number; bad: number };
      findings: { id: string; title: string; count: number }[];
    }[];
  },
  publicUrl: string,
): ProjectDetail {
  return {
    ...presentProject(d.project),
    latest_crawl: d.latestCrawl === null ? null : presentBatch(d.latestCrawl, publicUrl),
    site_score: d.siteScore,
    band: d.band,
    settings: d.settings,
    trend: d.trend.map((t) => ({
      batch_id: t.batchId,
      finished_at: t.finishedAt,
      site_score: t.siteScore,
      band: t.band,
      pages_audited: t.audited,
      bands: t.bands,
      findings: t.findings,
    })),
  };
}
