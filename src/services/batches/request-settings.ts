// A batch's crawl request settings: the headers, cookies and HTTP basic auth of its project
// (src/services/projects/request-headers.ts), as request headers for the start URL's origin only
// (src/analyzer/fetch/site-headers.ts). Every batch of the project uses them, whether started
// from the project (crawl now, its schedule) or with POST /api/v1/batches for a URL of its host:
// a site behind a staging wall needs them for any crawl. They are read from the project once
// per batch in each process (discovery; the page processor's site cache) and never copied anywhere: not into the batch's options, a job's payload, an
// error or a log line.
import type { SiteHeaders } from '../../analyzer/fetch/index.js';
import type { BatchRow } from '../../store/batches.repository.js';
import { projectRequestHeaders } from '../projects/projects.service.js';
import type { BatchDeps } from './deps.js';

/**
 * The batch's site headers (none: its project sets none), or why they cannot be used (the
 * project's secrets cannot be decrypted): the batch then fails with that reason rather than
 * crawl without them (every page would answer 401).
 */
export async function siteHeadersOf(
  d: BatchDeps,
  b: Pick<BatchRow, 'userId' | 'project' | 'url'>,
): Promise<{ siteHeaders?: SiteHeaders; error?: string }> {
  if (b.project === null) return {};
  const found = await projectRequestHeaders(d.ctx.db, d.ctx.config.secretKey ?? null, b.userId, b.project);
  if (found.error !== undefined) return { error: found.error };
  return found.headers ? { siteHeaders: { origin: new URL(b.url).origin, headers: found.headers } } : {};
}
