// The organisation's contract (docs/teams.md): GET /organization, its members (list, change a
// role or a viewer's projects, remove), the answers, their examples and the presenters.
import { Type, type Static } from 'typebox';
import { dateTime, enumOf, nullable } from './common.js';
export const ROLE_NAMES = ['viewer', 'member', 'admin', 'owner'] as const;

export interface Organization {
  id: number;
  name: string;
  createdAt: string;
}

/** A member of an organisation: a person, their role, and for a limited viewer their projects. */
export interface Member {
  userId: number;
  name: string;
  role: (typeof ROLE_NAMES)[number];
  /** a viewer limited to these projects; null: every project */
  projects: string[] | null;
  joinedAt: string;
}

const Role = enumOf('string', ROLE_NAMES, {
  description:
    '`viewer` reads; `member` also audits, crawls and edits reports and projects; `admin` also manages members, keys, webhooks and branding; `owner` everything, and the owners (docs/teams.md).',
});

const Projects = nullable(
  Type.Array(Type.String({ minLength: 1, maxLength: 253 }), {
    maxItems: 100,
    description:
      'A viewer limited to these projects (a client sees only their own site); null: every project.',
  }),
);

export const MemberSchema = Type.Object(
  {
    user_id: Type.Integer({ minimum: 1 }),
    name: Type.String(),
    role: Role,
    projects: Projects,
    joined_at: dateTime('When they joined the organisation.'),
  },
  { additionalProperties: false },
);

const memberExample = {
  user_id: 4,
  name: 'client-anna',
  role: 'viewer',
  projects: ['example.com'],
  joined_at: '2026-11-20T08:00:00.000Z',
};

export const MemberEnvelope = Type.Object(
  { data: MemberSchema },
  { additionalProperties: false, examples: [{ data: memberExample }] },
);

export const MembersEnvelope = Type.Object(
  { data: Type.Array(MemberSchema) },
  { additionalProperties: false, examples: [{ data: [memberExample] }] },
);

export const OrganizationEnvelope = Type.Object(
  {
    data: Type.Object(
      {
        id: Type.Integer({ minimum: 1 }),
        name: Type.String(),
        created_at: dateTime('When the organisation was made.'),
        role: Role,
        quotas: Type.Object(
          {
            reports_per_month: nullable(
              Type.Integer({ minimum: 1, description: 'Reports a calendar month (UTC); null: no limit.' }),
            ),
            pages_per_crawl: nullable(
              Type.Integer({ minimum: 1, description: "A crawl's max_pages at most; null: no limit." }),
            ),
            schedules: nullable(
              Type.Integer({ minimum: 1, description: 'Schedules at most; null: no limit.' }),
            ),
          },
          {
            additionalProperties: false,
            description:
              'The limits the instance admin set (`pagegrade orgs quota`; docs/teams.md "Quotas").',
          },
        ),
      },
      { additionalProperties: false },
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        data: {
          id: 1,
          name: 'acme-agency',
          created_at: '2026-11-01T09:30:00.000Z',
          role: 'admin',
          quotas: { reports_per_month: 500, pages_per_crawl: 1000, schedules: null },
        },
      },
    ],
  },
);

export const MemberParams = Type.Object({
  user_id: Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: "The member's user id." }),
});

export const PatchMemberBody = Type.Object(
  {
    role: Type.Optional(Role),
    projects: Type.Optional(Projects),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const presentMember = (m: Member): Static<typeof MemberSchema> => ({
  user_id: m.userId,
  name: m.name,
  role: m.role,
  projects: m.projects,
  joined_at: m.joinedAt,
});

export const presentOrganization = (
  o: Organization & {
    role: (typeof ROLE_NAMES)[number];
    quotas: { reportsPerMonth: number | null; pagesPerCrawl: number | null; schedules: number | null };
  },
): Static<typeof OrganizationEnvelope>['data'] => ({
  id: o.id,
  name: o.name,
  created_at: o.createdAt,
  role: o.role,
  quotas: {
    reports_per_month: o.quotas.reportsPerMonth,
    pages_per_crawl: o.quotas.pagesPerCrawl,
    schedules: o.quotas.schedules,
  },
});
