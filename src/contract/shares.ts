// Share links' contract (docs/teams.md "Share links"): make one for a report or a project's
// latest crawl, list, revoke; a link as the API shows it and its presenter.
import { Type, type Static } from 'typebox';
import { dateTime, MAX_ID, nullable } from './common.js';

export const ShareSchema = Type.Object(
  {
    id: Type.Integer({ minimum: 1 }),
    kind: Type.Union([Type.Literal('report'), Type.Literal('project')], {
      description: '`report`: one report; `project`: the project’s latest crawl.',
    }),
    report_id: nullable(Type.Integer({ minimum: 1 })),
    project: nullable(Type.String()),
    created_at: dateTime('When it was made.'),
    expires_at: dateTime('When it stops working.'),
    revoked_at: nullable(dateTime('When it was revoked.')),
  },
  { additionalProperties: false },
);

const example = {
  id: 3,
  kind: 'report',
  report_id: 42,
  project: null,
  created_at: '2026-11-30T10:00:00.000Z',
  expires_at: '2026-12-07T10:00:00.000Z',
  revoked_at: null,
};

export const ShareCreatedEnvelope = Type.Object(
  {
    data: Type.Object(
      {
        ...ShareSchema.properties,
        url: Type.String({
          format: 'uri',
          description: 'The link (`/s/<token>`): shown this once; only a hash of its token is kept.',
        }),
      },
      { additionalProperties: false },
    ),
  },
  {
    additionalProperties: false,
    examples: [{ data: { ...example, url: 'https://pagegrade.example.com/s/3q2-7wK9xZbQm4Yt1uVn8sEoLpR6dHcJ0aFgWiTe5Nk' } }],
  },
);

export const SharesEnvelope = Type.Object(
  { data: Type.Array(ShareSchema) },
  { additionalProperties: false, examples: [{ data: [example] }] },
);

export const CreateShareBody = Type.Object(
  {
    expires_in_days: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 90, default: 7, description: 'Days the link works, 1 to 90.' }),
    ),
  },
  { additionalProperties: false },
);

export const ShareParams = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: MAX_ID, description: "The share link's id." }),
});

export interface ShareInput {
  id: number;
  reportId: number | null;
  project: string | null;
  createdAt: string;
  expiresAt: string;
  revokedAt: string | null;
}

export const presentShare = (s: ShareInput): Static<typeof ShareSchema> => ({
  id: s.id,
  kind: s.reportId !== null ? 'report' : 'project',
  report_id: s.reportId,
  project: s.project,
  created_at: s.createdAt,
  expires_at: s.expiresAt,
  revoked_at: s.revokedAt,
});
