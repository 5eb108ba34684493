// createServices({db, analyze, config, queue}) → Services: the business rules. Services open the
// transactions (withTransaction) and hand them to the repositories, which hold all the SQL.
import type { Queue } from '../contract/jobs.js';
import type { Db } from '../store/database.js';
import type { KeyChangeWatch } from '../store/key-changes.js';
import { scopedProjects, scopedReports, scopedWebhooks } from './access/rules.js';
import { createAccountServices } from './accounts/accounts.service.js';
import { createHistoryServices } from './history/history.service.js';
import { createProjectServices } from './projects/projects.service.js';
import { createReportServices } from './reports/reports.service.js';
import { createWebhookServices } from './webhooks/webhooks.service.js';
import { createScheduleServices } from './schedules/schedules.service.js';
import { createBatchServices } from './batches/batches.service.js';
import { type FetchFileFn } from './batches/types.js';
import { createReportEvents } from './reports/events.js';
import { createBrandingServices } from './branding/branding.service.js';
import { createPdfServices } from './pdf/pdf.service.js';
import { createOrganizationServices } from './organizations/organizations.service.js';
import { createSignInServices } from './signin/signin.service.js';
import { createMailServices } from './signin/mail.js';
import { createAdminServices } from './admin/admin.service.js';
import { createAuditLogServices } from './audit-log/audit-log.service.js';
import { createShareServices } from './shares/shares.service.js';
import { createInvitationServices } from './invitations/invitations.service.js';
import { createSsoServices } from './sso/sso.service.js';
import { createBuildServices } from './builds/builds.service.js';
import type { GuardOptions } from '../analyzer/fetch/index.js';
import type { AnalyzeFn, ServicesConfig } from './shared/config.js';
import type { Services } from './types.js';
import type { KeyBus, RenderService } from './shared/context.js';
import { localChangeBus, type ChangeBus } from './shared/changes.js';
import { sharedNow } from '../timers.js';

export interface ServicesDeps {
  /** from createDb(databaseUrl).db, migrated */
  db: Db;
  analyze: AnalyzeFn;
  config: ServicesConfig;
  /** clock, for tests; default () => new Date() */
  now?: () => Date;
  /**
   * the job queue the services enqueue on: the process's job engine (src/jobs: createJobEngine,
   * or embeddedQueue(db) for a process that only enqueues)
   */
  queue: Queue;
  /** test seam: the webhook sender's DNS and address classification */
  webhookGuard?: Pick<GuardOptions, 'lookup' | 'classifyAddress'>;
  /** Chromium for rendered audits (src/render/browser.ts); absent: render=1 answers 422 */
  renderer?: RenderService;
  /** test seam: how batches fetch robots.txt and sitemaps (default: the guarded fetcher) */
  fetchFile?: FetchFileFn;
  /** key revocations to and from the other processes (Redis; src/store/redis.ts createKeyBus) */
  keyBus?: KeyBus;
  /**
   * API key changes made anywhere, from the database (SQLite: createDb's handle.keyChanges;
   * PostgreSQL: src/store/pg-changes.ts pgKeyChanges over the LISTEN bus); without it the key
   * cache is off
   */
  keyChanges?: KeyChangeWatch;
  /** live changes between processes (Redis: src/store/redis.ts createChangeBus; PostgreSQL: src/store/pg-changes.ts); default: this process */
  changes?: ChangeBus;
}

export function createServices(deps: ServicesDeps): Services {
  const base = {
    ...deps,
    now: deps.now ?? (() => new Date(sharedNow())),
    changes: deps.changes ?? localChangeBus(),
  };
  const webhooks = createWebhookServices(base);
  const reportEvents = createReportEvents(webhooks, deps.config.publicUrl ?? DEFAULT_PUBLIC_URL);
  const ctx = { ...base, reportEvents };
  const accounts = createAccountServices(ctx);
  const reports = { ...createReportServices(ctx), ...createHistoryServices(ctx) };
  const batches = createBatchServices(ctx, webhooks);
  const projects = createProjectServices(ctx, batches);
  const signin = createSignInServices(ctx, accounts);
  const mail = createMailServices(ctx, signin);
  const organizations = createOrganizationServices(ctx, accounts.auth.keysChanged);
  return {
    ...accounts,
    // what an API key may do (scopes, projects) is applied here, around the owner-level services
    reports: scopedReports(deps.db, reports),
    projects: scopedProjects(deps.db, projects),
    webhooks: scopedWebhooks(webhooks),
    // a project's schedule starts its crawls (docs/sites.md "Scheduled crawls")
    schedules: createScheduleServices(ctx, reports, projects),
    batches,
    branding: createBrandingServices(ctx),
    pdf: createPdfServices(ctx),
    organizations,
    signin,
    mail,
    sso: createSsoServices(ctx, { users: accounts.users, signin, organizations }),
    admin: createAdminServices(ctx, {
      keysChanged: accounts.auth.keysChanged,
      totpDisable: signin.totpDisable,
    }),
    auditLog: createAuditLogServices(ctx),
    shares: createShareServices(ctx),
    builds: createBuildServices(ctx),
    invitations: createInvitationServices(ctx, {
      sendInvitation: mail.sendInvitation,
      keysChanged: accounts.auth.keysChanged,
    }),
  };
}

/** The links' base in webhook payloads when the configuration gives none (the default PAGEGRADE_PUBLIC_URL). */
const DEFAULT_PUBLIC_URL = 'http://127.0.0.1:8080';

/** The bootstrap user's name. */
export const BOOTSTRAP_USER = 'admin';

/**
 * First start: on an empty users table creates user `admin` with a key (config.bootstrapKey
 * when set, else random) and returns that key so the server prints it once; otherwise null.
 * Safe when several processes start at once (the unique name lets one win).
 */
export async function bootstrap(
  services: Services,
  config: Pick<ServicesConfig, 'bootstrapKey'>,
): Promise<string | null> {
  if ((await services.users.list()).length > 0) return null;
  try {
    const { key } = await services.users.create(BOOTSTRAP_USER, { key: config.bootstrapKey ?? undefined });
    return key.key;
  } catch (err) {
    // another process created it first
    if ((await services.users.find(BOOTSTRAP_USER)) !== null) return null;
    throw err;
  }
}
