// The request schemas both web layers validate with (TypeBox): the API's routes (src/http) and
// the pages (src/pages). The list queries are the services' contract (src/services/list-query.ts)
// and are re-exported here under the names the API documents.
import { Type, type Static } from 'typebox';
import {
  enumOf,
  ListProjectsParams,
  ListReportsParams,
  ListRunsParams,
  NO_NUL,
} from '../lists.js';

export { PER_PAGE } from '../lists.js';
export { ListProjectsParams as ListProjectsQuery, ListReportsParams as ListReportsQuery };
export { ListRunsParams as ListRunsQuery };

/** The largest report id a request may name (PostgreSQL `integer`); larger ids answer 404. */
export const MAX_ID = 2_147_483_647;

export const ReportParams = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: MAX_ID, description: 'Report id (anything else answers 404).' }),
});
export type ReportParams = Static<typeof ReportParams>;

export const ProjectParams = Type.Object({
  project: Type.String({
    minLength: 1,
    maxLength: 255,
    pattern: NO_NUL,
    description: 'Project name (a host name).',
  }),
});
export type ProjectParams = Static<typeof ProjectParams>;

const PRIVACIES = [0, 1, 2] as const;
/** the words accepted for privacy, in the order of its numbers */
export const PRIVACY_WORDS = ['public', 'private', 'password'] as const;
export type PrivacyInput = 0 | 1 | 2 | (typeof PRIVACY_WORDS)[number];
/** privacy as a number (0 public, 1 private, 2 password), or a word for it */
const privacyField = (extra: { default?: 0 }) =>
  Type.Unsafe<PrivacyInput>({
    anyOf: [
      { type: 'integer', enum: [...PRIVACIES] },
      { type: 'string', enum: [...PRIVACY_WORDS] },
    ],
    ...extra,
    description: '0 or public, 1 or private, 2 or password.',
    examples: [2, 'password'],
  });
const privacy = privacyField({});
/** A privacy field's value as the number the services use. */
export function privacyOf(v: PrivacyInput): 0 | 1 | 2 {
  return typeof v === 'number' ? v : (PRIVACY_WORDS.indexOf(v) as 0 | 1 | 2);
}
const password = Type.String({
  maxLength: 128,
  description: 'Required when privacy is 2; ignored for privacy 0 and 1.',
});

const render = enumOf('integer', [0, 1], {
  default: 0,
  description:
    '1 renders the page in headless Chromium too: `results` are the rendered DOM\'s, `render` lists what JavaScript changed (docs/rendering.md). Without Chromium: 422 under `errors.render`. With `results=1` on an update: the re-audit is rendered.',
});

export const StoreReportBody = Type.Object({
  url: Type.String({
    minLength: 1,
    maxLength: 2048,
    pattern: '^\\s*[Hh][Tt][Tt][Pp][Ss]?://',
    description: 'The page to audit (http or https).',
  }),
  privacy: Type.Optional(privacyField({ default: 0 })),
  password: Type.Optional(password),
  render: Type.Optional(render),
});
export type StoreReportBody = Static<typeof StoreReportBody>;

export const UpdateReportBody = Type.Object({
  privacy: Type.Optional(privacy),
  password: Type.Optional(password),
  results: Type.Optional(
    enumOf('integer', [0, 1], {
      default: 0,
      description: '1 audits the page again (the earlier run is kept as history).',
    }),
  ),
  render: Type.Optional(render),
});
export type UpdateReportBody = Static<typeof UpdateReportBody>;

const runNumber = (description: string) => Type.Integer({ minimum: 1, maximum: MAX_ID, description });

/** GET /api/v1/reports/{id}/runs/{run} */
export const RunParams = Type.Object({
  id: ReportParams.properties.id,
  run: runNumber("The run's number within its report (anything else answers 404)."),
});
export type RunParams = Static<typeof RunParams>;

/** GET /api/v1/reports/{id}/diff */
export const DiffQuery = Type.Object({
  from: Type.Optional(runNumber('The earlier run (default: the completed run before `to`).')),
  to: Type.Optional(runNumber('The later run (default: the current run).')),
});
export type DiffQuery = Static<typeof DiffQuery>;
