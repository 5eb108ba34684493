// The account's contract: the account object of GET /api/v1/account, and an API key as the
// API shows it (never the secret).
import { Type, type Static } from 'typebox';
import { dateTime, nullable } from './common.js';
import type { KeyRow as ApiKeyInfo } from '../store/keys.repository.js';

/** The account of the key that asks (GET /api/v1/account): the presenter's input. */
export interface Account {
  id: number;
  name: string;
  createdAt: string;
  reportsCount: number;
  projectsCount: number;
  key: ApiKeyInfo;
  /** the organisation the key acts in, and the member's role there */
  organization: { id: number; name: string; role: string };
}

export function presentApiKey(k: ApiKeyInfo): Static<typeof ApiKey> {
  return {
    id: k.id,
    prefix: k.prefix,
    scopes: k.scopes,
    projects: k.projects,
    created_at: k.createdAt,
    last_used_at: k.lastUsedAt,
    expires_at: k.expiresAt,
  };
}

export function presentAccount(a: Account): Static<typeof AccountEnvelope>['data'] {
  return {
    id: a.id,
    name: a.name,
    created_at: a.createdAt,
    reports_count: a.reportsCount,
    projects_count: a.projectsCount,
    key: presentApiKey(a.key),
    organization: a.organization,
  };
}

export const ApiKey = Type.Object(
  {
    id: Type.Integer({ minimum: 1 }),
    prefix: Type.String({ description: "The key's first characters (never the secret)." }),
    scopes: Type.Array(Type.String({ enum: ['read', 'write'] }), {
      description: '`read`: GET only; `write`: everything.',
    }),
    projects: nullable(
      Type.Array(Type.String(), { description: 'The projects it is limited to; null: every project.' }),
    ),
    created_at: dateTime('When it was issued.'),
    last_used_at: nullable(dateTime('When it was last used (written at most once a minute).')),
    expires_at: nullable(dateTime('When it stops working; null: never.')),
  },
  { additionalProperties: false },
);

export const account = {
  id: 1,
  name: 'alice',
  created_at: '2026-11-01T09:30:00.000Z',
  reports_count: 42,
  projects_count: 3,
  key: {
    id: 7,
    prefix: 'pg_Ab3dE9',
    scopes: ['read'],
    projects: ['example.com'],
    created_at: '2026-11-20T08:00:00.000Z',
    last_used_at: '2026-11-25T21:14:05.120Z',
    expires_at: '2026-12-20T08:00:00.000Z',
  },
  organization: { id: 1, name: 'alice', role: 'owner' },
};

export const AccountEnvelope = Type.Object(
  {
    data: Type.Object(
      {
        id: Type.Integer({ minimum: 1 }),
        name: Type.String(),
        created_at: dateTime('When the user was created.'),
        reports_count: Type.Integer({ minimum: 0, description: 'Reports this key can see.' }),
        projects_count: Type.Integer({ minimum: 0, description: 'Projects this key can see.' }),
        key: ApiKey,
        organization: Type.Object(
          {
            id: Type.Integer({ minimum: 1 }),
            name: Type.String(),
            role: Type.String({
              enum: ['viewer', 'member', 'admin', 'owner'],
              description: "The key's member's role in it (docs/teams.md): what the key may do at most.",
            }),
          },
          { additionalProperties: false, description: 'The organisation the key acts in (docs/teams.md).' },
        ),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false, examples: [{ data: account }] },
);
