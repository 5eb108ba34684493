// GET /api/v1/batches/{id}/diff (docs/sites.md, "Comparing crawls"): a crawl compared with
// another of its project — the schema with its example, and the presenter from the domain's
// CrawlDiff (src/crawl/diff.ts). The webhooks (batch.completed, batch.regressed) carry its
// summary part (DiffDigest).
import { Type, type Static, type TSchema } from 'typebox';
import { PRIORITIES, RESULTS } from '../../analyzer/types.js';
import {
  CHANGE_FIELDS,
  FINDING_STATES,
  REGRESSION_CODES,
  diffCrawls,
  type CheckTable,
  type CrawlDiff,
  type PageDigest,
  type PageState,
  type SiteScore,
} from '../../crawl/diff.js';
import { extractedKey, fillExtracted } from '../../crawl/diff-extracted.js';
import { MAX_ID, withExample } from '../common.js';

const nullable = <T extends TSchema>(s: T) => Type.Union([s, Type.Null()]);
const strict = { additionalProperties: false } as const;

export const DiffQuery = Type.Object(
  {
    from: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_ID,
        description:
          'Compare with this batch (an ended crawl of the same project) instead of the previous finished one.',
      }),
    ),
  },
  strict,
);

const Site = nullable(
  Type.Object(
    {
      score: Type.Integer({ description: "The mean of the audited pages' scores, rounded." }),
      band: Type.String({ enum: [...RESULTS] }),
    },
    strict,
  ),
);

const Summary = Type.Object(
  {
    pages: Type.Object(
      {
        before: Type.Integer({
          description: 'Pages the earlier crawl fetched (audited, failed or redirected).',
        }),
        after: Type.Integer(),
        added: Type.Integer(),
        removed: Type.Integer(),
        changed: Type.Integer(),
        compared: Type.Integer({ description: 'Pages audited in both crawls.' }),
        bands_dropped: Type.Integer(),
        bands_raised: Type.Integer(),
        newly_non_200: Type.Integer(),
        newly_noindex: Type.Integer(),
      },
      strict,
    ),
    findings: Type.Object({ new: Type.Integer(), persisting: Type.Integer(), fixed: Type.Integer() }, strict),
    checks: Type.Object(
      {
        new: Type.Integer({ description: 'Failed checks newly failing, summed over the pages.' }),
        fixed: Type.Integer(),
      },
      strict,
    ),
    extracted: Type.Object(
      {
        names: Type.Array(Type.String(), {
          description:
            'The custom extractors compared: the names both crawls have (an extractor of one crawl only is not compared). [] when none.',
        }),
        changed: Type.Integer({
          description: 'Pages audited in both crawls whose extracted values changed.',
        }),
      },
      strict,
    ),
    site: Type.Object({ before: Site, after: Site }, strict),
  },
  strict,
);

const Reason = Type.Object(
  {
    code: Type.String({ enum: [...REGRESSION_CODES] }),
    message: Type.String(),
    finding: Type.Optional(Type.String()),
    count: Type.Optional(Type.Integer()),
  },
  strict,
);

const crawlRef = Type.Object(
  { id: Type.Integer(), finished_at: nullable(Type.String({ format: 'date-time' })) },
  strict,
);

/** What the webhooks carry: which crawl it was compared with, the counts, the verdict. */
export const DiffDigest = Type.Object(
  {
    from: nullable(
      Type.Integer({ description: 'The batch compared with (null: the project’s first crawl).' }),
    ),
    summary: Summary,
    regressed: Type.Boolean(),
    reasons: Type.Array(Reason),
  },
  strict,
);

const stateFields = {
  status: nullable(Type.Integer()),
  redirect: nullable(Type.String({ description: 'Where the request was redirected to.' })),
  title: nullable(Type.String()),
  canonical: nullable(Type.String({ description: 'The canonical URL when it names another URL.' })),
  noindex: Type.Boolean(),
  band: nullable(Type.String({ enum: [...RESULTS] })),
  score: nullable(Type.Integer()),
};
const State = Type.Object(stateFields, strict);
const PageOf = Type.Object({ url: Type.String(), ...stateFields }, strict);
const CheckRef = Type.Object(
  { id: Type.String(), title: Type.String(), priority: Type.String({ enum: [...PRIORITIES] }) },
  strict,
);
const FindingPage = Type.Object({ url: Type.String(), detail: Type.Optional(Type.String()) }, strict);
const ExtractedValue = nullable(Type.Union([Type.String(), Type.Array(Type.String())]));
const ExtractedChange = Type.Object(
  {
    name: Type.String({ description: "The extractor's name." }),
    before: ExtractedValue,
    after: ExtractedValue,
  },
  {
    ...strict,
    description:
      "An extractor's value on the page in each crawl: the first match, every match (an array) for an extractor with `all`, or null (no match).",
  },
);

/**
 * The example: a real answer of the diff, for a page whose title and extracted price changed and
 * a link broken.
 */
const exampleDiff = (() => {
  const names = ['price'];
  const before = new Map([['https://example.com/', { price: '€12.50' }]]);
  const after = new Map([['https://example.com/', { price: '€14.00' }]]);
  const page = (url: string, p: Partial<PageDigest>): PageDigest => ({
    url,
    status: 200,
    redirect: null,
    audited: true,
    title: 'Example',
    canonical: null,
    noindex: false,
    band: 'good',
    score: 91,
    failed: '',
    extracted: null,
    ...p,
  });
  const checks: CheckTable = new Map([
    ['meta_description', { title: 'Meta description', priority: 'medium' }],
  ]);
  const broken = {
    id: 'broken_links',
    priority: 'high' as const,
    title: 'Internal links to pages that answered 4xx/5xx or could not be fetched',
  };
  const diff = diffCrawls(
    {
      id: 6,
      finishedAt: '2026-11-25T10:02:41.000Z',
      pages: [
        page('https://example.com/', { extracted: extractedKey(before.get('https://example.com/'), names) }),
        page('https://example.com/old', { score: 88 }),
      ],
      findings: [{ ...broken, count: 0, pages: [] }],
    },
    {
      id: 7,
      finishedAt: '2026-11-26T10:02:41.000Z',
      pages: [
        page('https://example.com/', {
          title: 'Example — home',
          score: 84,
          band: 'decent',
          failed: 'meta_description',
          extracted: extractedKey(after.get('https://example.com/'), names),
        }),
        page('https://example.com/new', {
          status: 404,
          audited: false,
          title: null,
          band: null,
          score: null,
        }),
      ],
      findings: [
        {
          ...broken,
          count: 1,
          pages: [{ url: 'https://example.com/', detail: 'https://example.com/new (404)' }],
        },
      ],
    },
    checks,
    { pageShare: 0.1, extracted: names },
  );
  fillExtracted(diff, before, after);
  return diff;
})();

const DiffSchema = Type.Object(
  {
    from: nullable(crawlRef),
    to: crawlRef,
    summary: Summary,
    regressed: Type.Boolean(),
    reasons: Type.Array(Reason),
    pages: Type.Object(
      {
        added: Type.Array(PageOf),
        removed: Type.Array(PageOf),
        changed: Type.Array(
          Type.Object(
            {
              url: Type.String(),
              changes: Type.Array(Type.String({ enum: [...CHANGE_FIELDS] })),
              before: State,
              after: State,
              score_delta: nullable(Type.Integer()),
              checks: Type.Object({ new: Type.Array(CheckRef), fixed: Type.Array(CheckRef) }, strict),
              extracted: Type.Array(ExtractedChange, {
                description:
                  'Custom extraction, audited in both crawls: each extractor of both crawls whose value changed (`changes` then names `extracted`); [] otherwise.',
              }),
            },
            strict,
          ),
        ),
      },
      strict,
    ),
    findings: Type.Array(
      Type.Object(
        {
          id: Type.String(),
          title: Type.String(),
          priority: Type.String({ enum: [...PRIORITIES] }),
          state: Type.String({ enum: [...FINDING_STATES] }),
          pages: Type.Array(FindingPage, {
            description: 'The pages concerned: now (new, persisting), before (fixed).',
          }),
          new_pages: Type.Array(FindingPage),
          fixed_pages: Type.Array(FindingPage),
        },
        strict,
      ),
    ),
  },
  strict,
);

type DiffJson = Static<typeof DiffSchema>;

const site = (s: SiteScore | null) => (s === null ? null : { score: s.score, band: s.band });
const state = (p: PageState) => ({
  status: p.status,
  redirect: p.redirect,
  title: p.title,
  canonical: p.canonical,
  noindex: p.noindex,
  band: p.band,
  score: p.score,
});
const page = (p: PageState & { url: string }) => ({ url: p.url, ...state(p) });

export function presentDiffDigest(d: CrawlDiff): Static<typeof DiffDigest> {
  const p = d.summary.pages;
  return {
    from: d.from?.id ?? null,
    summary: {
      pages: {
        before: p.before,
        after: p.after,
        added: p.added,
        removed: p.removed,
        changed: p.changed,
        compared: p.compared,
        bands_dropped: p.bandsDropped,
        bands_raised: p.bandsRaised,
        newly_non_200: p.newlyNon200,
        newly_noindex: p.newlyNoindex,
      },
      findings: { ...d.summary.findings },
      checks: { ...d.summary.checks },
      extracted: { names: [...d.summary.extracted.names], changed: d.summary.extracted.changed },
      site: { before: site(d.summary.site.before), after: site(d.summary.site.after) },
    },
    regressed: d.regressed,
    reasons: d.reasons.map((r) => ({ ...r })),
  };
}

export function presentDiff(d: CrawlDiff): DiffJson {
  const digest = presentDiffDigest(d);
  return {
    from: d.from === null ? null : { id: d.from.id, finished_at: d.from.finishedAt },
    to: { id: d.to.id, finished_at: d.to.finishedAt },
    summary: digest.summary,
    regressed: digest.regressed,
    reasons: digest.reasons,
    pages: {
      added: d.pages.added.map(page),
      removed: d.pages.removed.map(page),
      changed: d.pages.changed.map((c) => ({
        url: c.url,
        changes: c.changes,
        before: state(c.before),
        after: state(c.after),
        score_delta: c.scoreDelta,
        checks: { new: c.checks.new.map((x) => ({ ...x })), fixed: c.checks.fixed.map((x) => ({ ...x })) },
        extracted: c.extracted.map((x) => ({ name: x.name, before: x.before, after: x.after })),
      })),
    },
    findings: d.findings.map((f) => ({
      id: f.id,
      title: f.title,
      priority: f.priority,
      state: f.state,
      pages: f.pages,
      new_pages: f.newPages,
      fixed_pages: f.fixedPages,
    })),
  };
}

/** GET /api/v1/batches/{id}/diff's answer, with its example. */
export const BatchDiffEnvelope = Type.Object(
  { data: withExample(DiffSchema, presentDiff(exampleDiff)) },
  { examples: [{ data: presentDiff(exampleDiff) }] },
);
