// The Kysely table types of organisations, people and their memberships (the migration
// 2026-11-30T02-organizations; docs/teams.md), beside database.ts's (which holds the Database
// interface that names them).
import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date | string, string, string>;
type NullableTimestamp = ColumnType<Date | string | null, string | null, string | null>;

/**
 * An organisation (docs/teams.md): it owns every report, project, batch, schedule, webhook and
 * branding (their `org_id`), and keeps their counters. Its name is unique on the instance.
 */
export interface OrganizationsTable {
  id: Generated<number>;
  name: string;
  created_at: Timestamp;
  projects_count: Generated<number>;
  reports_count: Generated<number>;
  good_count: Generated<number>;
  decent_count: Generated<number>;
  bad_count: Generated<number>;
  /** bumped with every change of the report counters (a version of the organisation's report set) */
  reports_version: Generated<number>;
  /** bumped with reports_version by a crawl's page only (a kept list answer may trail those by 1 s) */
  crawl_writes: Generated<number>;
  /** quotas (null: none): audits stored a calendar month (UTC), pages a crawl, schedules */
  quota_reports_per_month: Generated<number | null>;
  quota_pages_per_crawl: Generated<number | null>;
  quota_schedules: Generated<number | null>;
}

/** A person: a member of one or more organisations. */
export interface UsersTable {
  id: Generated<number>;
  name: string;
  created_at: Timestamp;
  /** the instance admin (the first user, or one the CLI made admin) */
  is_admin: ColumnType<boolean | number, boolean | number | undefined, boolean | number>;
  disabled_at: NullableTimestamp;
  /** unique, lower-case (2026-12-01T01-signin); null for a person made without one */
  email: ColumnType<string | null, string | null | undefined, string | null>;
  /** `scrypt$N$r$p$salt$hash` (src/services/signin/passwords.ts); null: no password */
  password_hash: ColumnType<string | null, string | null | undefined, string | null>;
  /** the TOTP secret, encrypted (src/services/shared/secrets.ts encryptSecret) */
  totp_secret: ColumnType<string | null, string | null | undefined, string | null>;
  /** set once the second factor is confirmed with a code; null: off (a secret may wait for its code) */
  totp_enabled_at: NullableTimestamp;
  /** the last TOTP time step accepted (a code is never accepted twice) */
  totp_last_step: ColumnType<number | string | null, number | null | undefined, number | null>;
}

/** A dashboard session (the cookie holds the random id; this row its SHA-256). */
export interface SessionsTable {
  id: string;
  user_id: number;
  /** the organisation it acts in (a person's choice; a key's session: the key's) */
  org_id: number | null;
  /** a session opened with an API key (it ends with the key) */
  key_id: number | null;
  /** `totp`: the password was right, the second factor is still to come */
  stage: ColumnType<'active' | 'totp', 'active' | 'totp' | undefined, 'active' | 'totp'>;
  created_at: Timestamp;
  expires_at: Timestamp;
  revoked_at: NullableTimestamp;
}

/** A password reset link (its token's SHA-256): single use, expiring. */
export interface PasswordResetsTable {
  id: string;
  user_id: number;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
}

/** A second factor's recovery code (its SHA-256): single use. */
export interface RecoveryCodesTable {
  user_id: number;
  hash: string;
  used_at: NullableTimestamp;
}

/** A person's role in an organisation; `projects` (JSON array) limits a viewer to those projects. */
export interface MembershipsTable {
  org_id: number;
  user_id: number;
  role: 'owner' | 'admin' | 'member' | 'viewer';
  projects: string | null;
  created_at: Timestamp;
}

/** One change in an organisation (docs/teams.md "Audit log"). */
export interface AuditLogTable {
  id: Generated<number>;
  org_id: number;
  at: Timestamp;
  actor: 'member' | 'key' | 'cli' | 'system';
  actor_user_id: number | null;
  actor_key_id: number | null;
  ip: string | null;
  action: string;
  target_type: string;
  target_id: string | null;
  /** JSON object of what changed (never a secret) */
  changes: string;
}

/** One change by the instance admin (2026-12-03T04-instance-log): the audit log's columns, no organisation. */
export type InstanceLogTable = Omit<AuditLogTable, 'org_id'>;

/** A share link (docs/teams.md "Share links"): a report, or a project's latest crawl. */
export interface SharesTable {
  id: Generated<number>;
  org_id: number;
  /** hex SHA-256 of the token */
  token_hash: string;
  report_id: number | null;
  project: string | null;
  created_by: number | null;
  created_at: Timestamp;
  expires_at: Timestamp;
  revoked_at: NullableTimestamp;
}

/** An invitation to join an organisation (docs/teams.md "Invitations"); only the token's SHA-256 is kept. */
export interface InvitationsTable {
  id: Generated<number>;
  org_id: number;
  /** lower-case */
  email: string;
  role: 'owner' | 'admin' | 'member' | 'viewer';
  /** a viewer's projects, JSON; null: every project */
  projects: string | null;
  /** hex SHA-256 of the token */
  token_hash: string;
  created_by: number | null;
  created_at: Timestamp;
  expires_at: Timestamp;
  accepted_at: NullableTimestamp;
  accepted_by: number | null;
  revoked_at: NullableTimestamp;
}

/** A single sign-on under way (2026-12-02T02-sso): keyed by its state's SHA-256; used once. */
export interface SsoLoginsTable {
  id: string;
  code_verifier: string;
  nonce: string;
  next_path: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
}

/** An identity provider's subject linked to a person (single sign-on). */
export interface IdentitiesTable {
  issuer: string;
  subject: string;
  user_id: number;
  /** the provider's email at the last sign-in */
  email: string | null;
  created_at: Timestamp;
  last_used_at: NullableTimestamp;
}
