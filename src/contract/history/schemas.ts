// TypeBox schemas of the history's API answers (docs/history.md): runs and diffs. The diff is
// also the report.regressed webhook's `diff` (src/contract/webhooks/events.ts).
import { Type } from 'typebox';
import { CATEGORIES, PRIORITIES, RESULTS } from '../../analyzer/types.js';
import { RUN_SOURCES, RUN_STATUSES } from '../../store/runs.repository.js';
import { dateTime, nullable, uri, withExample } from '../common.js';
import { paginated } from '../pagination.js';
import { Categories, CheckResult, PageInfo } from '../reports/schemas.js';
import * as ex from './examples.js';

const RunLinks = Type.Object({ self: uri(), report: uri() }, { additionalProperties: false });

const runSummaryFields = {
  id: Type.Integer({
    minimum: 1,
    description:
      "The run's number within its report: 1 is the first audit. It never changes: the current run keeps it when a later run replaces it.",
  }),
  report_id: Type.Integer({ minimum: 1 }),
  status: Type.String({
    enum: [...RUN_STATUSES],
    description: '`failed`: the page could not be fetched (see `error`); such a run has no results.',
  }),
  current: Type.Boolean({ description: "The report's current results are this run's." }),
  source: nullable(
    Type.String({
      enum: [...RUN_SOURCES],
      description:
        'What started the run (`batch`: a crawl, see `batch_id`); null for a first audit (and runs kept before runs were numbered).',
    }),
  ),
  batch_id: nullable(
    Type.Integer({
      minimum: 1,
      description:
        'The crawl (batch) that made the run, for source `batch` (GET /api/v1/batches/{id}; it stays when the batch is deleted); null for other sources.',
    }),
  ),
  generated_at: dateTime('When the audit was made (a failed run: when it was tried).'),
  final_url: nullable(Type.String()),
  result: nullable(Type.String({ enum: [...RESULTS] })),
  score: nullable(Type.Integer({ minimum: 0, maximum: 100 })),
  categories: nullable(Categories),
  error: nullable(Type.String({ description: 'Why a failed run failed.' })),
};

export const RunSummary = Type.Object(
  { ...runSummaryFields, links: RunLinks },
  { additionalProperties: false },
);

export const Run = Type.Object(
  {
    ...runSummaryFields,
    results: nullable(
      Type.Record(Type.String(), CheckResult, { description: 'Every check, keyed by its id.' }),
    ),
    page: nullable(PageInfo),
    links: RunLinks,
  },
  { additionalProperties: false },
);

export const RunList = withExample(paginated(RunSummary), { data: [ex.runSummary], ...ex.runListMeta });

export const RunEnvelope = withExample(Type.Object({ data: Run }, { additionalProperties: false }), {
  data: ex.run,
});

const CheckState = Type.String({ enum: ['passed', 'failed', 'inconclusive', 'absent'] });

const CheckValue = Type.Union([
  Type.String(),
  Type.Number(),
  Type.Boolean(),
  Type.Null(),
  Type.Array(Type.String()),
]);

const CheckChange = Type.Object(
  {
    id: Type.String(),
    title: Type.String(),
    category: Type.String({ enum: [...CATEGORIES] }),
    priority: Type.String({ enum: [...PRIORITIES] }),
    from: CheckState,
    to: CheckState,
    from_value: Type.Optional(CheckValue),
    to_value: Type.Optional(CheckValue),
    message: Type.String({ description: 'What the check says in the later run.' }),
  },
  { additionalProperties: false },
);

const ScoreChange = Type.Object(
  { from: Type.Integer(), to: Type.Integer(), delta: Type.Integer({ description: '`to` − `from`.' }) },
  { additionalProperties: false },
);

const PageFactValue = Type.Union([
  Type.String(),
  Type.Number(),
  Type.Null(),
  Type.Array(Type.Object({ url: Type.String(), status: Type.Integer() }, { additionalProperties: false })),
]);

export const ReportDiff = Type.Object(
  {
    report_id: Type.Integer({ minimum: 1 }),
    from: RunSummary,
    to: RunSummary,
    changed: Type.Boolean({ description: 'Anything below changed.' }),
    regression: Type.Boolean({
      description: 'The result band dropped, or a high-priority check newly failed.',
    }),
    score: ScoreChange,
    result: Type.Object(
      {
        from: Type.String({ enum: [...RESULTS] }),
        to: Type.String({ enum: [...RESULTS] }),
        change: Type.String({ enum: ['better', 'worse', 'same'] }),
      },
      { additionalProperties: false },
    ),
    categories: Type.Object(
      Object.fromEntries(CATEGORIES.map((c) => [c, ScoreChange])) as Record<
        (typeof CATEGORIES)[number],
        typeof ScoreChange
      >,
      { additionalProperties: false },
    ),
    checks: Type.Object(
      {
        newly_failed: Type.Array(CheckChange),
        newly_passed: Type.Array(CheckChange),
        newly_inconclusive: Type.Array(CheckChange),
        value_changed: Type.Array(CheckChange, { description: 'Same state in both runs, another value.' }),
      },
      { additionalProperties: false },
    ),
    page: Type.Array(
      Type.Object(
        { fact: Type.String(), from: PageFactValue, to: PageFactValue },
        { additionalProperties: false },
      ),
      { description: 'Page facts that changed (timings only past the noise floor).' },
    ),
    links: Type.Object({ self: uri(), report: uri() }, { additionalProperties: false }),
  },
  { additionalProperties: false },
);

export const ReportDiffEnvelope = withExample(
  Type.Object({ data: ReportDiff }, { additionalProperties: false }),
  { data: ex.diff },
);
