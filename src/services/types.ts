// The services as a whole: each feature's interface (src/services/<feature>/types.ts, beside
// its implementation) composed into one object. Services hold the business rules and open the
// transactions; the repositories under src/store hold every SQL statement. Services throw
// AppError (src/errors.ts): 404 not_found (no such resource for this user, another user's id
// too), 422 validation_failed (business rules). Shapes and enums are validated by the HTTP
// schemas before a service is called.
import type { BatchServices } from './batches/types.js';
import type { BrandingServices } from './branding/types.js';
import type { PdfServices } from './pdf/types.js';
import type {
  Account,
  AuthContext,
  AuthServices,
  KeysServices,
  Principal,
  SettingsServices,
  UsersServices,
} from './accounts/types.js';
import type { ReportsServices } from './reports/types.js';
import type { ReportHistoryServices } from './history/types.js';
import type { ProjectsServices } from './projects/types.js';
import type { WebhooksServices } from './webhooks/types.js';
import type { SchedulesServices } from './schedules/types.js';
import type { OrganizationServices } from './organizations/types.js';
import type { SignInServices } from './signin/types.js';
import type { MailServices } from './signin/mail.js';
import type { AdminServices } from './admin/types.js';
import type { AuditLogServices } from './audit-log/types.js';
import type { SharesServices } from './shares/types.js';
import type { InvitationServices } from './invitations/types.js';
import type { SsoServices } from './sso/types.js';
import type { BuildsServices } from './builds/types.js';

/**
 * The owner-level operations (a user id). Services, below, is what callers get: the same with
 * the operations on a user's data taking a Principal (src/services/access/rules.ts applies the key's
 * scopes and projects, then calls these with the user id).
 */
export interface OwnerServices {
  /** whole-site audits (docs/sites.md) */
  batches: BatchServices;
  auth: AuthServices;
  reports: ReportsServices & ReportHistoryServices;
  projects: ProjectsServices;
  users: UsersServices;
  keys: KeysServices;
  settings: SettingsServices;
  webhooks: WebhooksServices;
  schedules: SchedulesServices;
}

/** A method whose first parameter is the user id, taking a Principal instead. */
type ByPrincipal<T, Skip extends keyof T = never> = {
  [K in keyof T]: K extends Skip
    ? T[K]
    : T[K] extends (userId: number, ...rest: infer A) => infer R
      ? (who: Principal, ...rest: A) => R
      : T[K];
};

/** The services as routes, pages and the CLI use them (see OwnerServices). */
export interface Services extends Omit<OwnerServices, 'reports' | 'projects' | 'webhooks'> {
  reports: ByPrincipal<OwnerServices['reports'], 'forViewer' | 'verifyPassword' | 'pageHistory'>;
  projects: ByPrincipal<OwnerServices['projects']>;
  webhooks: ByPrincipal<OwnerServices['webhooks'], 'emit' | 'attempt'>;
  account: {
    /** the actor's user and key; counts only what the key may see */
    show(actor: AuthContext): Promise<Account>;
  };
  /** the PDF reports' branding, per user (src/services/branding/branding.service.ts) */
  branding: BrandingServices;
  /** branded PDF reports printed by Chromium (src/services/pdf/pdf.service.ts) */
  pdf: PdfServices;
  /** organisations, members and roles (src/services/organizations; docs/teams.md) */
  organizations: OrganizationServices;
  /** passwords, dashboard sessions, reset links, the second factor, sign-up (src/services/signin; docs/teams.md) */
  signin: SignInServices;
  /** single sign-on with OpenID Connect (src/services/sso; docs/teams.md "Single sign-on") */
  sso: SsoServices;
  /** reset links by email when SMTP is configured */
  mail: MailServices;
  /** the instance admin's (src/services/admin; docs/teams.md) */
  admin: AdminServices;
  /** the organisations' audit logs (src/services/audit-log; docs/teams.md "Audit log") */
  auditLog: AuditLogServices;
  /** share links to a report or a project's latest crawl (src/services/shares; docs/teams.md) */
  shares: SharesServices;
  /** invitations to join an organisation (src/services/invitations; docs/teams.md "Invitations") */
  invitations: InvitationServices;
  /** CI builds compared with their base (src/services/builds; docs/ci.md "Builds") */
  builds: BuildsServices;
}
