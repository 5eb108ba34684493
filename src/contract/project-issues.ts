// A project's issue states and ignore rules (docs/sites.md, "Issue states and ignore rules"):
// GET /api/v1/projects/{project}/issues (paged, by state and kind), the ignore rules with their
// change log (GET …/ignore-rules), a rule created (POST) and its params (DELETE …/{rule_id}).
import { Type, type Static } from 'typebox';
import { PRIORITIES } from '../analyzer/types.js';
import { enumOf, nullable, NO_NUL, withExample } from './common.js';
import { pageParam, PER_PAGE } from './lists.js';
import { listExample, paginated } from './pagination.js';
import { IgnoreRule } from './project-settings.js';

export const ISSUE_STATES = ['new', 'persisting', 'fixed', 'ignored'] as const;
export const ISSUE_KINDS = ['check', 'finding'] as const;

export const ListIssuesQuery = Type.Object({
  state: Type.Optional(
    enumOf('string', ISSUE_STATES, {
      description:
        "new: first seen in the project's newest crawl; persisting: seen in the crawl before too; fixed: in the crawl before, not in the newest; ignored: an ignore rule covers it.",
    }),
  ),
  kind: Type.Optional(
    enumOf('string', ISSUE_KINDS, {
      description: 'check: a failed check of a page; finding: a site finding.',
    }),
  ),
  per_page: Type.Optional(enumOf('integer', PER_PAGE, { default: 25, description: 'Items per page.' })),
  page: Type.Optional(pageParam()),
});
export type ListIssuesQuery = Static<typeof ListIssuesQuery>;

export const Issue = Type.Object(
  {
    kind: Type.String({ enum: [...ISSUE_KINDS] }),
    id: Type.String({ description: 'The check id or the site finding id.' }),
    url: Type.String({ description: 'The page.' }),
    state: Type.String({ enum: [...ISSUE_STATES] }),
    priority: Type.String({ enum: [...PRIORITIES] }),
    title: Type.String(),
    detail: nullable(Type.String({ description: "A finding's detail for the page (the link target …)." })),
    since_batch_id: Type.Integer({
      description: 'The first crawl of the run of consecutive crawls that had it (persisting: since when).',
    }),
    batch_id: Type.Integer({
      description: 'The crawl that set this state (fixed: the crawl that no longer had it).',
    }),
    rule_id: nullable(Type.String({ description: 'ignored: the rule.' })),
    reason: nullable(Type.String({ description: "ignored: the rule's reason." })),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);
export type Issue = Static<typeof Issue>;

const issueExample: Issue = {
  kind: 'check',
  id: 'meta_description',
  url: 'https://example.com/pricing',
  state: 'persisting',
  priority: 'medium',
  title: 'The page has no meta description',
  detail: null,
  since_batch_id: 5,
  batch_id: 7,
  rule_id: null,
  reason: null,
  updated_at: '2026-11-29T04:10:00.000Z',
};

export const IssueList = withExample(paginated(Issue), {
  data: [issueExample],
  ...listExample('https://pagegrade.example.com/api/v1/projects/example.com/issues'),
});

export const IgnoreRuleParams = Type.Object({
  project: Type.String({
    minLength: 1,
    maxLength: 255,
    pattern: NO_NUL,
    description: 'Project name (a host name).',
  }),
  rule_id: Type.String({ minLength: 1, maxLength: 64, pattern: NO_NUL, description: "The rule's id." }),
});

const ruleExample: IgnoreRule = {
  rule_id: 'rule_3f9a1c0b7d2e',
  id: 'meta_description',
  url_pattern: '/blog/*',
  reason: 'The blog has no descriptions.',
  expires_at: null,
};

export const IgnoreRuleEnvelope = Type.Object(
  { data: IgnoreRule },
  { additionalProperties: false, examples: [{ data: ruleExample }] },
);

export const RuleChange = Type.Object(
  {
    action: Type.String({
      enum: ['add', 'remove', 'replace'],
      description: "add, remove (…/ignore-rules), or replace (PUT/PATCH of the settings' ignore).",
    }),
    rule_id: nullable(Type.String({ description: 'add, remove: the rule; replace: null.' })),
    rules: Type.Array(IgnoreRule, { description: 'The rule added or removed; replace: the new list.' }),
    by: Type.Object(
      {
        via: Type.String({ enum: ['api', 'dashboard'] }),
        key_id: nullable(
          Type.Integer({
            description: 'The API key that made it (the dashboard: the key its session signed in with).',
          }),
        ),
        key_prefix: nullable(Type.String({ description: "The key's first characters, as listed." })),
      },
      {
        additionalProperties: false,
        description: 'Who made it: an API key of the user, or the user in the dashboard.',
      },
    ),
    at: Type.String({ format: 'date-time', description: 'When.' }),
  },
  { additionalProperties: false },
);
export type RuleChange = Static<typeof RuleChange>;

export const IgnoreRulesEnvelope = Type.Object(
  {
    data: Type.Object(
      {
        rules: Type.Array(IgnoreRule),
        changes: Type.Array(RuleChange, { description: 'The newest 100 changes, newest first.' }),
      },
      { additionalProperties: false },
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        data: {
          rules: [ruleExample],
          changes: [
            {
              action: 'add',
              rule_id: ruleExample.rule_id,
              rules: [ruleExample],
              by: { via: 'api', key_id: 3, key_prefix: 'pg_Ab3dE9' },
              at: '2026-11-29T04:00:00.000Z',
            },
          ],
        },
      },
    ],
  },
);

/** A stored issue as the API answers it. */
export function presentIssue(r: {
  kind: 'check' | 'finding';
  issueId: string;
  url: string;
  state: Issue['state'];
  priority: string;
  title: string;
  detail: string | null;
  firstBatchId: number;
  batchId: number;
  ruleId: string | null;
  reason: string | null;
  updatedAt: string;
}): Issue {
  return {
    kind: r.kind,
    id: r.issueId,
    url: r.url,
    state: r.state,
    priority: r.priority,
    title: r.title,
    detail: r.detail,
    since_batch_id: r.firstBatchId,
    batch_id: r.batchId,
    rule_id: r.ruleId,
    reason: r.reason,
    updated_at: r.updatedAt,
  };
}
