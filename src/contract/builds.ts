// Builds' contract (issue 23 §2; docs/ci.md "Builds"): what `pagegrade ci --upload` sends, a build
// as the API shows it with its comparison, the list, and their presenters.
import { Type, type Static, type TSchema } from 'typebox';
import { RESULTS } from '../analyzer/types.js';
import { dateTime, enumOf, MAX_ID, NO_NUL, nullable, withExample } from './common.js';
import { listExample, paginated } from './pagination.js';
import { PER_PAGE, pageParam } from './lists.js';
import { Categories, CheckResult, PageInfo, RenderInfo } from './reports/schemas.js';
import { report as reportExample } from './reports/examples.js';
import type { BuildRow } from '../store/builds.repository.js';

const SHA_PATTERN = '^[0-9a-fA-F]{7,40}$';
/** null first: the API's Ajv coerces types, and would read a null as "" for a string first */
const orNull = <T extends TSchema>(s: T) => Type.Union([Type.Null(), s]);
const text = (maxLength: number, description: string) =>
  Type.String({ minLength: 1, maxLength, pattern: NO_NUL, description });

/** One audit as `pagegrade ci` made it (the analyzer's report; unknown keys are ignored). */
const AuditReportInput = Type.Object(
  {
    url: Type.String({ maxLength: 2048 }),
    final_url: Type.String({ maxLength: 2048 }),
    project: Type.Optional(Type.String({ description: 'Ignored: the build’s project is the report’s.' })),
    result: Type.String({ enum: [...RESULTS] }),
    score: Type.Integer({ minimum: 0, maximum: 100 }),
    generated_at: Type.String({ format: 'date-time' }),
    categories: Categories,
    results: Type.Record(Type.String(), CheckResult),
    page: PageInfo,
    render: Type.Optional(RenderInfo),
  },
  { additionalProperties: true },
);

const AssertionInput = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 200 }),
    kind: Type.String({ enum: ['check', 'category', 'figure', 'finding'] }),
    level: Type.String({ enum: ['warn', 'error'] }),
    passed: nullable(Type.Boolean()),
    actual: nullable(Type.Number()),
    expected: Type.String({ maxLength: 200 }),
  },
  { additionalProperties: true },
);

export const CreateBuildBody = withExample(
  Type.Object(
    {
      project: text(253, 'The project the build belongs to (its reports are that project’s).'),
      commit_sha: Type.String({ pattern: SHA_PATTERN, description: 'The commit built: 7 to 40 hex characters.' }),
      branch: text(255, 'The branch built.'),
      base_branch: Type.Optional(
        orNull(text(255, 'The branch it is compared with (a pull request’s target); none: not compared.')),
      ),
      ancestor_sha: Type.Optional(
        orNull(
          Type.String({
            pattern: SHA_PATTERN,
            description: 'The merge base with the base branch: the base build is that commit’s when there is one.',
          }),
        ),
      ),
      author: Type.Optional(orNull(text(255, 'Who made the commit.'))),
      message: Type.Optional(orNull(Type.String({ maxLength: 4000, pattern: NO_NUL, description: 'The commit message.' }))),
      run_url: Type.Optional(orNull(Type.String({ maxLength: 2048, description: 'The CI run (http or https).' }))),
      pages: Type.Array(
        Type.Object(
          {
            url: Type.String({ minLength: 1, maxLength: 2048, description: 'The URL audited.' }),
            report: AuditReportInput,
            figures: Type.Optional(
              Type.Record(Type.String(), nullable(Type.Number()), { description: 'The median figures (budgets).' }),
            ),
            assertions: Type.Optional(Type.Array(AssertionInput, { maxItems: 2000 })),
          },
          { additionalProperties: false },
        ),
        { minItems: 1, maxItems: 500, description: 'Each URL’s result (1 to 500).' },
      ),
    },
    { additionalProperties: false },
  ),
  {
    project: 'example.com',
    commit_sha: '4f1c2e9',
    branch: 'feature/pricing',
    base_branch: 'main',
    ancestor_sha: '9a8b7c6',
    author: 'Ada <ada@example.com>',
    message: 'Pricing page: new hero',
    run_url: 'https://ci.example.com/runs/12',
    pages: [
      {
        url: reportExample.url,
        report: reportExample,
        figures: { score: reportExample.score, page_bytes: 48213, requests: 12 },
        assertions: [
          { id: 'page_bytes', kind: 'figure', level: 'error', passed: true, actual: 48213, expected: '≤ 500000' },
        ],
      },
    ],
  },
);

export const BuildParams = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: MAX_ID, description: "The build's id." }),
});

export const ListBuildsQuery = Type.Object({
  branch: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'Only this branch’s builds.' })),
  per_page: Type.Optional(enumOf('integer', PER_PAGE, { default: 10, description: 'Items per page.' })),
  page: Type.Optional(pageParam()),
});

const Ref = {
  id: Type.Integer({ minimum: 1 }),
  commit_sha: Type.String(),
  branch: Type.String(),
};
const Change = Type.Object({ id: Type.String(), title: Type.String() }, { additionalProperties: false });
const maybeNumber = nullable(Type.Number());

export const Comparison = Type.Object(
  {
    build: Type.Object(Ref, { additionalProperties: false }),
    base: nullable(
      Type.Object(
        { ...Ref, matched: Type.String({ enum: ['ancestor', 'newest'] }) },
        {
          additionalProperties: false,
          description: '`ancestor`: the base branch’s build of the ancestor commit; `newest`: its newest before this build.',
        },
      ),
    ),
    regressed: Type.Boolean(),
    reasons: Type.Array(Type.String()),
    pages: Type.Array(
      Type.Object(
        {
          url: Type.String(),
          path: Type.String(),
          status: Type.String({ enum: ['compared', 'new', 'removed'] }),
          score: Type.Object(
            { base: maybeNumber, head: maybeNumber, delta: maybeNumber },
            { additionalProperties: false },
          ),
          newly_failing: Type.Array(Change),
          newly_passing: Type.Array(Change),
          figures: Type.Array(
            Type.Object(
              { id: Type.String(), base: maybeNumber, head: maybeNumber, delta: maybeNumber },
              { additionalProperties: false },
            ),
          ),
          assertions_newly_failing: Type.Array(
            Type.Object(
              {
                id: Type.String(),
                level: Type.String({ enum: ['warn', 'error'] }),
                actual: maybeNumber,
                expected: Type.String(),
              },
              { additionalProperties: false },
            ),
          ),
          regressed: Type.Boolean(),
          reasons: Type.Array(Type.String()),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

export const Build = Type.Object(
  {
    id: Type.Integer({ minimum: 1 }),
    project: Type.String(),
    commit_sha: Type.String(),
    branch: Type.String(),
    base_branch: nullable(Type.String()),
    ancestor_sha: nullable(Type.String()),
    author: nullable(Type.String()),
    message: nullable(Type.String()),
    run_url: nullable(Type.String()),
    base_build_id: nullable(Type.Integer({ minimum: 1 })),
    created_at: dateTime('When it was uploaded.'),
    links: Type.Object(
      { self: Type.String({ format: 'uri' }), page: Type.String({ format: 'uri' }) },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

const BuildPage = Type.Object(
  {
    url: Type.String(),
    report_id: nullable(Type.Integer({ minimum: 1 })),
    run: Type.Integer({ minimum: 1, description: 'The run of the report this URL’s result was stored as.' }),
    score: Type.Integer(),
    result: Type.String(),
  },
  { additionalProperties: false },
);

const buildExample = {
  id: 12,
  project: 'example.com',
  commit_sha: '4f1c2e9',
  branch: 'feature/pricing',
  base_branch: 'main',
  ancestor_sha: '9a8b7c6',
  author: 'Ada <ada@example.com>',
  message: 'Pricing page: new hero',
  run_url: 'https://ci.example.com/runs/12',
  base_build_id: 10,
  created_at: '2026-12-03T10:00:00.000Z',
  links: {
    self: 'https://pagegrade.example.com/api/v1/builds/12',
    page: 'https://pagegrade.example.com/dashboard/builds/12',
  },
};

const comparisonExample = {
  build: { id: 12, commit_sha: '4f1c2e9', branch: 'feature/pricing' },
  base: { id: 10, commit_sha: '9a8b7c6', branch: 'main', matched: 'ancestor' },
  regressed: true,
  reasons: ['/pricing: title_length newly fails', '/pricing: score 92 → 84 (-8)'],
  pages: [
    {
      url: 'https://example.com/pricing',
      path: '/pricing',
      status: 'compared',
      score: { base: 92, head: 84, delta: -8 },
      newly_failing: [{ id: 'title_length', title: 'Title length' }],
      newly_passing: [],
      figures: [{ id: 'page_bytes', base: 48213, head: 51200, delta: 2987 }],
      assertions_newly_failing: [],
      regressed: true,
      reasons: ['/pricing: title_length newly fails', '/pricing: score 92 → 84 (-8)'],
    },
  ],
};

export const BuildEnvelope = withExample(
  Type.Object(
    {
      data: Type.Object(
        { ...Build.properties, pages: Type.Array(BuildPage), comparison: Comparison },
        { additionalProperties: false },
      ),
    },
    { additionalProperties: false },
  ),
  {
    data: {
      ...buildExample,
      pages: [{ url: 'https://example.com/pricing', report_id: 42, run: 7, score: 84, result: 'good' }],
      comparison: comparisonExample,
    },
  },
);

export const BuildList = withExample(paginated(Build), {
  data: [buildExample],
  ...listExample('https://pagegrade.example.com/api/v1/projects/example.com/builds'),
});

export function presentBuild(b: BuildRow, publicUrl: string): Static<typeof Build> {
  return {
    id: b.id,
    project: b.project,
    commit_sha: b.commitSha,
    branch: b.branch,
    base_branch: b.baseBranch,
    ancestor_sha: b.ancestorSha,
    author: b.author,
    message: b.message,
    run_url: b.runUrl,
    base_build_id: b.baseBuildId,
    created_at: b.createdAt,
    links: { self: `${publicUrl}/api/v1/builds/${b.id}`, page: `${publicUrl}/dashboard/builds/${b.id}` },
  };
}

export function presentBuildView(
  v: {
    build: BuildRow;
    pages: { url: string; reportId: number | null; runNumber: number; score: number; result: string }[];
    comparison: Static<typeof Comparison>;
  },
  publicUrl: string,
): Static<typeof BuildEnvelope> {
  return {
    data: {
      ...presentBuild(v.build, publicUrl),
      pages: v.pages.map((p) => ({
        url: p.url,
        report_id: p.reportId,
        run: p.runNumber,
        score: p.score,
        result: p.result,
      })),
      comparison: v.comparison,
    },
  };
}
