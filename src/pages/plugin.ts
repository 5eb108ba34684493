// The web pages: one Fastify plugin that builds the shared page context and registers the
// page plugins (plugins/: assets, session, CSRF, errors) and the route files (routes/: report
// page, sign-in, dashboard, projects, home). Server-rendered with the escaping `html` tag; no
// client framework. Everything goes through the Services interface (the same rules as the API);
// who may see a report is the services' decision. Shared with the API: the request schemas and
// messages (src/web), the list-query contract (src/contract/lists.ts).
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from '../config.js';
import type { Services } from '../services/types.js';
import { RedisAttemptStore } from './attempt-store-redis.js';
import type { PageContext } from './context.js';
import { assetRoutes } from './plugins/assets.js';
import { loadAssets } from '../views/asset-files.js';
import { registerCsrf } from './plugins/csrf.js';
import { registerPageAccess } from './plugins/access.js';
import { createErrorPages, registerErrorPages } from './plugins/errors.js';
import { createViewers } from './plugins/session.js';
import { accountPageRoutes } from './routes/account.js';
import { adminPageRoutes } from './routes/admin.js';
import { auditLogPageRoutes } from './routes/audit-log.js';
import { buildPageRoutes } from './routes/builds.js';
import { sharedPageRoutes } from './routes/shared.js';
import { batchPageRoutes } from './routes/batches.js';
import { comparePageRoutes } from './routes/compare.js';
import { batchLinkPageRoutes } from './routes/batch-links.js';
import { brandingPageRoutes } from './routes/branding.js';
import { dashboardRoutes } from './routes/dashboard.js';
import { homeRoutes } from './routes/home.js';
import { keyPageRoutes } from './routes/keys.js';
import { memberPageRoutes } from './routes/members.js';
import { projectPageRoutes } from './routes/project.js';
import { projectBrandingPageRoutes } from './routes/project-branding.js';
import { ignoreRulePageRoutes } from './routes/ignore-rules.js';
import { projectRoutes } from './routes/projects.js';
import { reportPageRoutes } from './routes/report.js';
import { signInRoutes } from './routes/sign-in.js';
import { invitePageRoutes } from './routes/invite.js';
import { ssoRoutes } from './routes/sso.js';
import { schedulePageRoutes } from './routes/schedules.js';
import { webhookPageRoutes } from './routes/webhooks.js';
import { CookieKit } from './session.js';
import { MemoryAttemptStore, type AttemptStore } from './throttle.js';
import { layout } from '../views/layout.js';

export interface PagesOptions {
  services: Services;
  config: Pick<Config, 'publicUrl'>;
  /** where wrong-password and sign-in attempts are counted; default: Redis when given, else memory */
  attemptStore?: AttemptStore;
  redis?: Redis | null;
}

export async function pagesPlugin(app: FastifyInstance, opts: PagesOptions): Promise<void> {
  const { services } = opts;
  const kit = new CookieKit(
    await services.settings.sessionSecret(),
    opts.config.publicUrl.startsWith('https:'),
  );
  const attempts: AttemptStore =
    opts.attemptStore ?? (opts.redis ? new RedisAttemptStore(opts.redis) : new MemoryAttemptStore());
  const assets = loadAssets();

  const viewers = createViewers(services, kit);
  const send: PageContext['send'] = (reply, status, title, viewer, body, extra = {}) =>
    reply
      .code(status)
      .type('text/html; charset=utf-8')
      .send(layout({ title, assets: assets.urls, viewer, body, ...extra }).value);
  const ctx: PageContext = {
    services,
    publicUrl: opts.config.publicUrl,
    kit,
    attempts,
    ...viewers,
    send,
    ...createErrorPages({ send, viewerFor: viewers.viewerFor }),
  };

  registerErrorPages(app, ctx);
  registerCsrf(app, ctx);
  registerPageAccess(app, ctx, app.hasDecorator('accessRoutes') ? app.accessRoutes : []);
  assetRoutes(app, ctx, assets);
  reportPageRoutes(app, ctx);
  signInRoutes(app, ctx);
  invitePageRoutes(app, ctx);
  ssoRoutes(app, ctx);
  dashboardRoutes(app, ctx);
  projectRoutes(app, ctx);
  projectPageRoutes(app, ctx);
  ignoreRulePageRoutes(app, ctx);
  projectBrandingPageRoutes(app, ctx);
  batchPageRoutes(app, ctx);
  comparePageRoutes(app, ctx);
  batchLinkPageRoutes(app, ctx);
  webhookPageRoutes(app, ctx);
  schedulePageRoutes(app, ctx);
  keyPageRoutes(app, ctx);
  accountPageRoutes(app, ctx);
  adminPageRoutes(app, ctx);
  brandingPageRoutes(app, ctx);
  memberPageRoutes(app, ctx);
  auditLogPageRoutes(app, ctx);
  buildPageRoutes(app, ctx);
  sharedPageRoutes(app, ctx);
  homeRoutes(app, ctx);
}
