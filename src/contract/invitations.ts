// Invitations' contract (docs/teams.md "Invitations"): invite by email and role, list, revoke;
// an invitation as the API shows it (never its token: the link is in the 201 answer only), its
// examples and presenter.
import { Type, type Static } from 'typebox';
import { dateTime, enumOf, MAX_ID, nullable } from './common.js';
import { ROLE_NAMES } from './organization.js';
import { listExample } from './pagination.js';
import { PER_PAGE, pageParam } from './lists.js';

const INVITATION_STATES = ['pending', 'accepted', 'revoked', 'expired'] as const;

export const InvitationSchema = Type.Object(
  {
    id: Type.Integer({ minimum: 1 }),
    email: Type.String({ description: 'The invited address (lower-case).' }),
    role: enumOf('string', ROLE_NAMES, { description: 'The role the person gets on accepting.' }),
    projects: nullable(
      Type.Array(Type.String(), { description: 'A viewer limited to these projects; null: every project.' }),
    ),
    state: enumOf('string', INVITATION_STATES, {
      description: '`pending` until accepted, revoked or expired.',
    }),
    created_by: nullable(Type.Integer({ minimum: 1, description: 'The member who invited.' })),
    created_at: dateTime('When it was made.'),
    expires_at: dateTime('When the link stops working (7 days after it was made).'),
    accepted_at: nullable(dateTime('When it was accepted.')),
    revoked_at: nullable(dateTime('When it was revoked (or replaced by a newer one for the same email).')),
  },
  { additionalProperties: false },
);

const example = {
  id: 5,
  email: 'client@example.com',
  role: 'viewer',
  projects: ['example.com'],
  state: 'pending',
  created_by: 1,
  created_at: '2026-12-01T10:00:00.000Z',
  expires_at: '2026-12-08T10:00:00.000Z',
  accepted_at: null,
  revoked_at: null,
};

export const invitationsExample = {
  data: [example],
  ...listExample('https://pagegrade.example.com/api/v1/organization/invitations'),
};

export const InvitationCreatedEnvelope = Type.Object(
  {
    data: Type.Object(
      {
        ...InvitationSchema.properties,
        url: Type.String({
          format: 'uri',
          description:
            'The invitation link (`/invite/<token>`): shown this once (and emailed when SMTP is configured); only a hash of its token is kept.',
        }),
        email_sent: Type.Boolean({ description: 'Whether the link was emailed to the address.' }),
      },
      { additionalProperties: false },
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        data: {
          ...example,
          url: 'https://pagegrade.example.com/invite/3q2-7wK9xZbQm4Yt1uVn8sEoLpR6dHcJ0aFgWiTe5Nk',
          email_sent: true,
        },
      },
    ],
  },
);

export const CreateInvitationBody = Type.Object(
  {
    email: Type.String({ minLength: 3, maxLength: 254, description: 'The address to invite.' }),
    role: enumOf('string', ROLE_NAMES, {
      description: 'The role on accepting; inviting an `owner` takes an owner.',
    }),
    projects: Type.Optional(
      nullable(
        Type.Array(Type.String({ minLength: 1, maxLength: 253 }), {
          maxItems: 100,
          description: 'Only for a viewer: the projects they will see (null or absent: every project).',
        }),
      ),
    ),
  },
  { additionalProperties: false },
);

export const InvitationsQuery = Type.Object({
  per_page: Type.Optional(enumOf('integer', PER_PAGE, { default: 10, description: 'Items per page.' })),
  page: Type.Optional(pageParam()),
});

export const InvitationParams = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: MAX_ID, description: "The invitation's id." }),
});

export interface InvitationInput {
  id: number;
  email: string;
  role: (typeof ROLE_NAMES)[number];
  projects: string[] | null;
  createdBy: number | null;
  createdAt: string;
  expiresAt: string;
  acceptedAt: string | null;
  revokedAt: string | null;
}

/** `now`: the moment the state is judged at (expired or pending) */
export const presentInvitation = (i: InvitationInput, now: Date): Static<typeof InvitationSchema> => ({
  id: i.id,
  email: i.email,
  role: i.role,
  projects: i.projects,
  state:
    i.acceptedAt !== null
      ? 'accepted'
      : i.revokedAt !== null
        ? 'revoked'
        : Date.parse(i.expiresAt) <= now.getTime()
          ? 'expired'
          : 'pending',
  created_by: i.createdBy,
  created_at: i.createdAt,
  expires_at: i.expiresAt,
  accepted_at: i.acceptedAt,
  revoked_at: i.revokedAt,
});
