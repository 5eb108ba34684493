// The migrations, in order of their dated names. Each file is frozen once released.
import type { Migration } from 'kysely';
import * as initial from './2026-11-21T21-initial.js';
import * as reportsVersion from './2026-11-21T22-reports-version.js';
import * as reportsScoreIndexes from './2026-11-25T08-reports-score-indexes.js';
import * as reportRunNumbers from './2026-11-25T19-report-run-numbers.js';
import * as jobs from './2026-11-25T20-jobs.js';
import * as webhooks from './2026-11-25T20-webhooks.js';
import * as schedules from './2026-11-26T01-schedules.js';
import * as batches from './2026-11-26T02-batches.js';
import * as render from './2026-11-26T03-render.js';
import * as apiKeyScopes from './2026-11-26T04-api-key-scopes.js';
import * as branding from './2026-11-27T01-branding.js';
import * as reportIssueCounts from './2026-11-27T03-report-issue-counts.js';
import * as batchPagesCanonical from './2026-11-27T04-batch-pages-canonical.js';
import * as scheduleRender from './2026-11-27T05-schedule-render.js';
import * as batchRender from './2026-11-28T01-batch-render.js';
import * as projectSettings from './2026-11-28T02-project-settings.js';
import * as batchFindings from './2026-11-28T03-batch-findings.js';
import * as batchProject from './2026-11-29T01-batch-project.js';
import * as oneReportPerPage from './2026-11-29T02-one-report-per-page.js';
import * as batchDiff from './2026-11-29T03-batch-diff.js';
import * as projectIssues from './2026-11-29T04-project-issues.js';
import * as projectSchedules from './2026-11-29T05-project-schedules.js';
import * as keyChanges from './2026-11-29T06-key-changes.js';
import * as organizations from './2026-11-30T02-organizations.js';
import * as signin from './2026-12-01T01-signin.js';
import * as auditLog from './2026-12-01T02-audit-log.js';
import * as projectBrandings from './2026-12-01T03-project-brandings.js';
import * as invitations from './2026-12-02T01-invitations.js';
import * as sso from './2026-12-02T02-sso.js';
import * as batchPageDigest from './2026-12-02T03-batch-page-digest.js';
import * as batchPageExtracted from './2026-12-03T05-batch-page-extracted.js';
import * as batchPageExtractErrors from './2026-12-06T01-batch-page-extract-errors.js';
import * as batchEndPending from './2026-12-07T01-batch-end-pending.js';
import * as orgCrawlWrites from './2026-12-08T01-org-crawl-writes.js';
import * as batchLinks from './2026-12-03T01-batch-links.js';
import * as builds from './2026-12-03T01-builds.js';
import * as instanceLog from './2026-12-03T04-instance-log.js';
import * as batchChecks from './2026-12-04T01-batch-checks.js';
import * as batchSitemapFiles from './2026-12-05T01-batch-sitemap-files.js';
import * as crawlIndexes from './2026-12-05T10-crawl-indexes.js';
import * as batchCheckVia from './2026-12-06T01-batch-check-via.js';

export const migrations: Record<string, Migration> = {
  '2026-11-21T21-initial': initial,
  '2026-11-21T22-reports-version': reportsVersion,
  '2026-11-25T08-reports-score-indexes': reportsScoreIndexes,
  '2026-11-25T19-report-run-numbers': reportRunNumbers,
  '2026-11-25T20-jobs': jobs,
  '2026-11-25T20-webhooks': webhooks,
  '2026-11-26T01-schedules': schedules,
  '2026-11-26T02-batches': batches,
  '2026-11-26T03-render': render,
  '2026-11-26T04-api-key-scopes': apiKeyScopes,
  '2026-11-27T01-branding': branding,
  '2026-11-27T03-report-issue-counts': reportIssueCounts,
  '2026-11-27T04-batch-pages-canonical': batchPagesCanonical,
  '2026-11-27T05-schedule-render': scheduleRender,
  '2026-11-28T01-batch-render': batchRender,
  '2026-11-28T02-project-settings': projectSettings,
  '2026-11-28T03-batch-findings': batchFindings,
  '2026-11-29T01-batch-project': batchProject,
  '2026-11-29T02-one-report-per-page': oneReportPerPage,
  '2026-11-29T03-batch-diff': batchDiff,
  '2026-11-29T04-project-issues': projectIssues,
  '2026-11-29T05-project-schedules': projectSchedules,
  '2026-11-29T06-key-changes': keyChanges,
  '2026-11-30T02-organizations': organizations,
  '2026-12-01T01-signin': signin,
  '2026-12-01T02-audit-log': auditLog,
  '2026-12-01T03-project-brandings': projectBrandings,
  '2026-12-02T01-invitations': invitations,
  '2026-12-02T02-sso': sso,
  '2026-12-02T03-batch-page-digest': batchPageDigest,
  '2026-12-03T01-batch-links': batchLinks,
  '2026-12-03T01-builds': builds,
  '2026-12-03T04-instance-log': instanceLog,
  '2026-12-03T05-batch-page-extracted': batchPageExtracted,
  '2026-12-04T01-batch-checks': batchChecks,
  '2026-12-05T01-batch-sitemap-files': batchSitemapFiles,
  '2026-12-05T10-crawl-indexes': crawlIndexes,
  '2026-12-06T01-batch-check-via': batchCheckVia,
  '2026-12-06T01-batch-page-extract-errors': batchPageExtractErrors,
  '2026-12-07T01-batch-end-pending': batchEndPending,
  '2026-12-08T01-org-crawl-writes': orgCrawlWrites,
};
