// The report request schemas both web layers validate with (TypeBox): the API's routes
// (src/http/routes/reports) and the pages (src/pages). The list query is the list contract
// (src/contract/lists.ts), re-exported here under the name the API documents.
import { Type, type Static } from 'typebox';
import { enumOf, MAX_ID } from '../common.js';
import { ListReportsParams } from '../lists.js';

export { ListReportsParams as ListReportsQuery };

export const ReportParams = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: MAX_ID, description: 'Report id (anything else answers 404).' }),
});
export type ReportParams = Static<typeof ReportParams>;

const PRIVACIES = [0, 1, 2] as const;
/** the words accepted for privacy, in the order of its numbers */
/** A report's PDF: `download=1` sends it as an attachment (a file to save), else inline. */
export const PdfQuery = Type.Object({
  download: Type.Optional(
    enumOf('string', ['0', '1'], {
      description:
        '`1`: `Content-Disposition: attachment` (the browser saves `pagegrade-<host>-<date>.pdf`); `0` or absent: `inline` (shown), with the same file name.',
    }),
  ),
});

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
    "1 renders the page in headless Chromium too: `results` are the rendered DOM's, `render` lists what JavaScript changed (docs/rendering.md). Without Chromium: 422 under `errors.render`. With `results=1` on an update: the re-audit is rendered.",
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
