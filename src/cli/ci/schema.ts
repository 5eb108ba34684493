// `pagegrade ci`'s configuration file, its shape written once: a TypeBox schema that the
// command compiles with Ajv (config.ts) and that `npm run docs` publishes as JSON Schema
// (docs/ci.schema.json) and as the reference table of docs/ci.md. The top-level keys are a
// promise to users and other tools (issue 23 §1): add, never rename.
import { Type, type Static, type TSchema } from 'typebox';
import { enumOf } from '../../contract/common.js';

export const LEVELS = ['off', 'warn', 'error'] as const;
export type Level = (typeof LEVELS)[number];

export const PRESETS = ['pagegrade:recommended', 'pagegrade:strict'] as const;
export type Preset = (typeof PRESETS)[number];

/** What an assertion's second item may hold: the bounds a figure, score or count must keep. */
const Limits = Type.Object(
  {
    min: Type.Optional(Type.Number({ description: 'the value must be at least this' })),
    max: Type.Optional(Type.Number({ description: 'the value must be at most this' })),
  },
  { additionalProperties: false },
);

const Level = enumOf('string', LEVELS, { description: 'how a failure counts' });

/** `"error"`, or `["error", {"max": 100000}]`. */
const Assertion = Type.Union(
  [
    Level,
    Type.Array(Type.Union([Level, Limits]), {
      minItems: 1,
      maxItems: 2,
      description: '[level] or [level, {min, max}]',
    }),
  ],
  { description: '"off", "warn", "error", or [level, {"min": N, "max": N}]' },
);

const Assertions = Type.Record(Type.String(), Assertion, {
  description:
    'id → assertion: a check id, `categories.<category>`, a figure (`page_bytes`, `lcp`, `resources.images` …) or a site finding id',
});

/** What both platforms' `report` settings share (src/integrations/environment.ts reads them). */
const reportCommon = (github: boolean) => ({
  api_url: Type.Optional(
    Type.String({
      minLength: 1,
      description: github
        ? 'the REST API (default `$GITHUB_API_URL`, else `https://api.github.com`; GitHub Enterprise: `https://HOST/api/v3`)'
        : 'the REST API (default `$CI_API_V4_URL`, else `https://gitlab.com/api/v4`; self-hosted: `https://HOST/api/v4`)',
    }),
  ),
  sha: Type.Optional(
    Type.String({
      minLength: 1,
      description: github
        ? "the commit the status is set on (default: the pull_request event's head, else `$GITHUB_SHA`)"
        : 'the commit the status is set on (default `$CI_COMMIT_SHA`)',
    }),
  ),
  token_env: Type.Optional(
    Type.String({
      pattern: '^[A-Za-z_][A-Za-z0-9_]*$',
      description: github
        ? 'the environment variable holding the token (default `PAGEGRADE_GITHUB_TOKEN`, else `GITHUB_TOKEN`); never the token itself'
        : 'the environment variable holding the token (default `PAGEGRADE_GITLAB_TOKEN`); never the token itself',
    }),
  ),
  context: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description: github
        ? 'the status context or check run name (default `pagegrade`)'
        : 'the status name (default `pagegrade`)',
    }),
  ),
  comment: Type.Optional(
    Type.Boolean({
      description: github
        ? 'keep one comment with the results on the pull request (default true)'
        : 'keep one note with the results on the merge request (default true)',
    }),
  ),
  key: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description:
        "tells this configuration's comment from another's (default: the configuration file's path)",
    }),
  ),
  target_url: Type.Optional(
    Type.String({
      minLength: 1,
      description: "the link in the status and the comment (default: the CI job's page)",
    }),
  ),
  required: Type.Optional(
    Type.Boolean({
      description: 'exit 3 when the status or comment cannot be posted (default false: a warning)',
    }),
  ),
  timeout_ms: Type.Optional(
    Type.Integer({
      minimum: 1000,
      maximum: 300_000,
      description: "the time allowed for the platform's answers, all requests together (default 30000)",
    }),
  ),
});

const Report = Type.Object(
  {
    github: Type.Optional(
      Type.Object(
        {
          ...reportCommon(true),
          repository: Type.Optional(
            Type.String({
              pattern: '^[^/\\s]+/[^/\\s]+$',
              description: 'owner/name (default `$GITHUB_REPOSITORY`)',
            }),
          ),
          pull_request: Type.Optional(
            Type.Integer({ minimum: 1, description: "the pull request (default: the pull_request event's)" }),
          ),
          check: Type.Optional(
            enumOf('string', ['status', 'check_run'] as const, {
              description: 'a commit status (default) or a check run (a GitHub App installation token)',
            }),
          ),
        },
        {
          additionalProperties: false,
          description: 'post a commit status or check run and one pull-request comment on GitHub',
        },
      ),
    ),
    gitlab: Type.Optional(
      Type.Object(
        {
          ...reportCommon(false),
          project: Type.Optional(
            Type.String({
              minLength: 1,
              description: 'the project id or `group/project` (default `$CI_PROJECT_ID`)',
            }),
          ),
          merge_request: Type.Optional(
            Type.Integer({
              minimum: 1,
              description: 'the merge request IID (default `$CI_MERGE_REQUEST_IID`)',
            }),
          ),
        },
        {
          additionalProperties: false,
          description: 'post a commit status and one merge-request note on GitLab',
        },
      ),
    ),
  },
  {
    additionalProperties: false,
    description: 'post the results on the pull request (GitHub) or merge request (GitLab)',
  },
);

export const CiConfigSchema = Type.Object(
  {
    $schema: Type.Optional(
      Type.String({ description: 'the JSON Schema for editors (docs/ci.schema.json); not read' }),
    ),
    urls: Type.Optional(
      Type.Array(Type.String({ minLength: 1 }), {
        minItems: 1,
        description:
          'the pages to audit: absolute http(s) URLs, or paths (`/about`) on the `serve` or `start` site',
      }),
    ),
    serve: Type.Optional(
      Type.String({
        minLength: 1,
        description:
          'a folder (a built static site) served on 127.0.0.1 on a free port; `urls` are paths on it (default: its index, `/`)',
      }),
    ),
    start: Type.Optional(
      Type.Object(
        {
          command: Type.String({ minLength: 1, description: 'a shell command that starts the site' }),
          url: Type.String({ minLength: 1, description: 'the URL that answers once the site is up' }),
          timeout_ms: Type.Optional(
            Type.Integer({
              minimum: 100,
              maximum: 600_000,
              description: 'how long to wait for `url` to answer (default 60000)',
            }),
          ),
        },
        {
          additionalProperties: false,
          description:
            'start the site with `command`, wait for `url`, audit; the command and its children are stopped at the end',
        },
      ),
    ),
    crawl: Type.Optional(
      Type.Object(
        {
          start: Type.String({
            minLength: 1,
            description: 'the start page: a URL, or a path on the `serve` or `start` site',
          }),
          max_pages: Type.Optional(
            Type.Integer({
              minimum: 1,
              maximum: 10_000,
              description: 'at most this many pages (default 100)',
            }),
          ),
          max_depth: Type.Optional(
            Type.Integer({ minimum: 0, maximum: 100, description: 'links followed this far (default 10)' }),
          ),
        },
        {
          additionalProperties: false,
          description:
            'crawl a site as `pagegrade crawl` does: its pages are audited too and its site findings asserted',
        },
      ),
    ),
    render: Type.Optional(
      Type.Boolean({
        description: 'render every page in headless Chromium (LCP, CLS, TBT …); default false',
      }),
    ),
    runs: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 20,
        description: 'audits per URL; the figures are the median of the runs (default 1)',
      }),
    ),
    preset: Type.Optional(
      enumOf('string', PRESETS, { description: 'default assertions, which `assertions` override' }),
    ),
    assertions: Type.Optional(Assertions),
    assertMatrix: Type.Optional(
      Type.Array(
        Type.Object(
          {
            matchingUrlPattern: Type.String({
              minLength: 1,
              description: 'a glob: `/legacy/**` (the URL path) or a whole URL (`https://*.example.com/**`)',
            }),
            assertions: Assertions,
          },
          { additionalProperties: false },
        ),
        { description: 'assertions overridden for the URLs a glob matches (in order, the last wins)' },
      ),
    ),
    budgets: Type.Optional(
      Type.Record(Type.String(), Type.Number({ minimum: 0 }), {
        description: 'figure → its maximum: an error-level `["error", {"max": N}]` assertion for each',
      }),
    ),
    upload: Type.Optional(
      Type.Object(
        {
          server: Type.Optional(
            Type.String({
              pattern: '^https?://',
              description: 'the Pagegrade server (its public URL); also --server or PAGEGRADE_SERVER',
            }),
          ),
          token: Type.Optional(
            Type.String({
              minLength: 1,
              description:
                'an API key with write scope; better PAGEGRADE_TOKEN (a CI secret) or --token than this file; never printed',
            }),
          ),
          project: Type.Optional(
            Type.String({ minLength: 1, description: "the build's project (default: the first URL's host)" }),
          ),
          origin: Type.Optional(
            Type.String({
              pattern: '^https?://[^/]+$',
              description:
                'the origin a served or started site stands for: its URLs are sent with it instead of the loopback one, so every build files them under the same reports',
            }),
          ),
          base_branch: Type.Optional(
            Type.String({
              minLength: 1,
              description:
                'the base branch when the CI does not name one (a push): the build is compared with its newest build',
            }),
          ),
        },
        {
          additionalProperties: false,
          description:
            'send the results to a Pagegrade server as a build compared with its base branch (also --upload; docs/ci.md "Builds")',
        },
      ),
    ),
    report: Type.Optional(Report),
  },
  { additionalProperties: false, title: 'pagegrade ci configuration' },
);

export type CiConfigFile = Static<typeof CiConfigSchema>;
export type AssertionValue = Static<typeof Assertion>;
export type ReportConfig = Static<typeof Report>;

/** The schema as plain JSON Schema (draft-07), as docs/ci.schema.json publishes it. */
export function configJsonSchema(): Record<string, unknown> {
  const plain = JSON.parse(JSON.stringify(CiConfigSchema as TSchema)) as Record<string, unknown>;
  return { $schema: 'http://json-schema.org/draft-07/schema#', ...plain };
}
