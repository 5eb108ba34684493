// An organisation's quotas (docs/teams.md "Quotas"), optional limits the instance admin sets
// (`pagegrade orgs quota`): reports a calendar month (UTC), pages per crawl, schedules. The
// services check them before the work: over the month's reports → 429 naming the quota and
// when it resets; a crawl's page that would make a report over it → the page is skipped, naming
// the quota; a crawl's max_pages over the limit → 422 `max_pages`; a schedule too many →
// 422 `schedule`.
import { AppError, validationError } from '../../errors.js';
import type { Db } from '../../store/database.js';
import {
  countOrgSchedules,
  countReportsSince,
  getQuotas,
  lockOrgRow,
} from '../../store/quotas.repository.js';

/** The first moment of `now`'s calendar month and of the next one (UTC). */
export function monthOf(now: Date): { start: Date; next: Date } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { start, next };
}

/** The month's reports quota when it is used up: its limit and when it resets; null when one more fits. */
async function reportQuotaUsedUp(
  db: Db,
  orgId: number,
  now: Date,
): Promise<{ limit: number; next: Date; message: string } | null> {
  const { reportsPerMonth } = await getQuotas(db, orgId);
  if (reportsPerMonth === null) return null;
  const { start, next } = monthOf(now);
  if ((await countReportsSince(db, orgId, start.toISOString())) < reportsPerMonth) return null;
  return {
    limit: reportsPerMonth,
    next,
    message: `The organization's quota of ${reportsPerMonth} reports a month (reports_per_month) is used up; it resets at ${next.toISOString()}.`,
  };
}

/** 429 when the organisation has made its quota of reports this month. */
export async function requireReportQuota(db: Db, orgId: number, now: Date): Promise<void> {
  const used = await reportQuotaUsedUp(db, orgId, now);
  if (used === null) return;
  const resets = used.next.toISOString();
  throw new AppError(
    429,
    'quota_exceeded',
    used.message,
    { quota: ['reports_per_month'], resets_at: [resets] },
    { 'Retry-After': String(Math.max(1, Math.ceil((used.next.getTime() - now.getTime()) / 1000))) },
  );
}

/**
 * A crawl's page that would make a new report (docs/teams.md "Quotas"): null when it fits the
 * month's quota, else why not (the page is then recorded as skipped with this reason). Called
 * in the page's transaction: the organisation's row is locked first, so pages stored at once
 * are counted one after the other.
 */
export async function crawlReportRefusal(trx: Db, orgId: number, now: Date): Promise<string | null> {
  const { reportsPerMonth } = await getQuotas(trx, orgId);
  if (reportsPerMonth === null) return null;
  await lockOrgRow(trx, orgId);
  const used = await reportQuotaUsedUp(trx, orgId, now);
  return used === null ? null : `Not stored as a new report: ${used.message}`;
}

/** 422 `max_pages` when a crawl asks for more pages than the organisation's quota. */
export async function requirePagesQuota(db: Db, orgId: number, maxPages: number): Promise<void> {
  const { pagesPerCrawl } = await getQuotas(db, orgId);
  if (pagesPerCrawl !== null && maxPages > pagesPerCrawl)
    throw validationError({
      max_pages: [
        `The max_pages may not be greater than ${pagesPerCrawl}: the organization's quota of pages per crawl (pages_per_crawl).`,
      ],
    });
}

/** 422 `schedule` when one more schedule would pass the organisation's quota. */
export async function requireScheduleQuota(db: Db, orgId: number): Promise<void> {
  const { schedules } = await getQuotas(db, orgId);
  if (schedules !== null && (await countOrgSchedules(db, orgId)) >= schedules)
    throw validationError({
      schedule: [
        `The organization has its quota of ${schedules} schedules (schedules): delete one before setting another.`,
      ],
    });
}
