// Projects: listing (counts come from the projects table) and deleting with all their reports;
// a project as a site (its page, settings, crawl now) is sites.ts.
import { projectName } from '../../analyzer/url.js';
import { notFound } from '../../errors.js';
import { withTransaction } from '../../store/database.js';
import {
  countProjects,
  deleteProjectRow,
  listProjectIds,
  listProjects,
  projectStats,
  projectsByIds,
} from '../../store/projects.repository.js';
import { deleteProjectReports } from '../../store/reports.repository.js';
import {
  adjustOrgCounters,
  getReportsState,
  getReportsVersion,
  getReportsVersions,
  getOrgCounters,
} from '../../store/organizations.repository.js';
import { AnswerCache, ReportsListCache, type ListAnswer } from '../shared/list-cache.js';
import { recordChange } from '../shared/audit-log.js';
import type { ServiceContext } from '../shared/context.js';
import { resolveProjectsQuery } from '../../contract/lists.js';
import type { ListProjectsQuery } from '../../contract/lists.js';
import type { OwnerServices } from '../types.js';
import type { ProjectStats } from './types.js';
import type { BatchServices } from '../batches/types.js';
import { createProjectSiteServices } from './sites.js';
import { createIgnoreRuleServices } from './ignore-rules.js';
import { deleteProjectIssues } from '../../store/issues.repository.js';

// the crawls' request headers (src/services/batches/request-settings.ts)
export { projectRequestHeaders } from './request-headers.js';

export function createProjectServices(
  ctx: ServiceContext,
  batches: BatchServices,
): OwnerServices['projects'] {
  const { db } = ctx;
  const cache = new ReportsListCache((userId) => getReportsVersion(db, userId));
  // finished answers, each with the version of the user's reports it was made at
  const answers = new AnswerCache<{ answer: ListAnswer; version: number; bytes: number }>();
  const service: OwnerServices['projects'] = {
    ...createProjectSiteServices(ctx, batches),
    ...createIgnoreRuleServices(ctx),

    async listAnswer(userId, q, answer) {
      // the version first: an answer made at it is exact while it is current — a project's row
      // (its name, creation date, report count) changes only with the version, in the same
      // transaction (a report stored or deleted, a project made or deleted). Unlike a reports
      // list, it never trails a crawl: a crawl's pages move the version, and the answer is made again.
      const version = (await getReportsVersions(db, userId))?.version ?? null;
      const key = JSON.stringify([userId, resolveProjectsQuery(q), answer.key]);
      const kept = answers.get(key);
      if (kept !== undefined && kept.version === version) return kept.answer;
      const made = answer.render(await service.list(userId, q));
      // moved meanwhile: what was read may belong to either version, and is not kept
      if (version !== null && (await getReportsVersions(db, userId))?.version === version)
        answers.set(key, { answer: made, version, bytes: made.bytes });
      return made;
    },

    async list(userId: number, q: ListProjectsQuery) {
      const { search, sortBy, sort, perPage, page } = resolveProjectsQuery(q);
      const o = { search, sortBy, sort, limit: perPage, offset: (page - 1) * perPage };
      let rows;
      let total: number;
      if (search) {
        // A search's total and page of ids, once per version of the user's reports: projects
        // come and go only with their reports or a PUT that creates one (the projects counter
        // changes, and with it the version), their names and
        // creation dates never change, so both are exact while the version is current
        // (src/services/shared/list-cache.ts). The rows (their report counts) are read fresh by id.
        const state = await getReportsState(db, userId);
        if (!state) return { items: [], total: 0 };
        total = await cache.total(userId, state.version, ['projects', search], () =>
          countProjects(db, userId, search),
        );
        if (o.offset >= total) return { items: [], total };
        const key = ['projects', search, sortBy, sort, perPage, page];
        const ids = await cache.pageIds(userId, state.version, key, () => listProjectIds(db, userId, o));
        rows = await projectsByIds(db, ids);
      } else {
        total = (await getOrgCounters(db, userId)).projects;
        if (o.offset >= total) return { items: [], total };
        rows = await listProjects(db, userId, o);
      }
      return {
        items: rows.map((r) => ({ project: r.name, createdAt: r.createdAt, reportsCount: r.reportsCount })),
        total,
      };
    },

    async stats(userId: number, projects: string[]) {
      const rows = await projectStats(db, userId, [...new Set(projects)]);
      return new Map<string, ProjectStats>(
        rows.map((r) => [
          r.name,
          {
            reports: r.reports,
            averageScore: r.averageScore,
            worstScore: r.worstScore,
            bands: { good: r.good, decent: r.decent, bad: r.bad },
            lastAuditAt: r.lastAuditAt,
          },
        ]),
      );
    },

    async delete(userId: number, name: string) {
      // a name as a user gives it → its stored form (`WWW.Example.com` is `example.com`)
      const project = projectName(name);
      return withTransaction(db, async (trx) => {
        // deleting the row first locks it: a concurrent delete of the same project waits,
        // then finds nothing (404); a concurrent create waits, then starts the project anew
        if (!(await deleteProjectRow(trx, userId, project))) throw notFound('No such project.');
        const deleted = await deleteProjectReports(trx, userId, project);
        // its issue states and its rules' log go with it
        await deleteProjectIssues(trx, userId, project);
        const reportsDeleted = deleted.good + deleted.decent + deleted.bad;
        await adjustOrgCounters(trx, userId, {
          projects: -1,
          reports: -reportsDeleted,
          good: -deleted.good,
          decent: -deleted.decent,
          bad: -deleted.bad,
        });
        await recordChange(trx, ctx.now(), userId, {
          action: 'project.deleted',
          target: { type: 'project', id: project },
          changes: { reports_deleted: reportsDeleted },
        });
        return { reportsDeleted };
      });
    },
  };
  return service;
}
