// What an API key may do, applied in the services: the routes hand the key's Actor
// {userId, scopes, projects} to the services, and these wrappers check it, then call the
// owner-level services (OwnerServices) with the user id.
//
// - Scopes: `read` keys may only read (a write answers 403 naming the missing scope); `write`
//   keys do everything.
// - Projects: a key limited to projects sees only those. Another project's report or project
//   answers 404 (as another user's data); lists hold only those projects; storing a report of
//   another project is 403. Webhooks (every project's events) need a key for every project.
// - An operation this file does not know (added later without a rule here) refuses a
//   project-limited key (403) rather than showing it every project.
// A plain user id (the pages, the CLI) is the user itself: every scope, every project.
import { projectName } from '../../analyzer/url.js';
import { forbidden, notFound } from '../../errors.js';
import type { Db } from '../../store/database.js';
import { findProject } from '../../store/projects.repository.js';
import { countReports, listReportIds } from '../../store/reports-list.repository.js';
import { findReportProject, summariesByIds, summaryTextsByIds } from '../../store/reports.repository.js';
import { actorOf, requireScope } from './actor.js';
import { resolveProjectsQuery, resolveReportsQuery } from '../../contract/lists.js';
import type { Actor, KeyScope, Principal } from '../accounts/types.js';
import type { ListReportsQuery, Page } from '../../contract/lists.js';
import type { OwnerServices, Services } from '../types.js';
import type { ProjectSummary } from '../projects/types.js';

export { actorOf, requireScope };

/** true when the actor may see this project's data */
export const seesProject = (actor: Actor, project: string): boolean =>
  actor.projects === null || actor.projects.includes(project);

/**
 * Who makes a change (a project's ignore rules' log): an API request's key, or the dashboard
 * (its signed-in viewer has a name; a plain user id is the user itself) with its session's key.
 */
const authorOf = (actor: Actor): { via: 'api' | 'dashboard'; keyId: number | null } => {
  const keyId = 'keyId' in actor && typeof actor.keyId === 'number' ? actor.keyId : null;
  return { via: keyId !== null && !('name' in actor) ? 'api' : 'dashboard', keyId };
};

function requireEveryProject(actor: Actor, what: string): void {
  if (actor.projects !== null)
    throw forbidden(
      `Forbidden: this API key is limited to projects (${actor.projects.join(', ')}); ${what} needs a key for every project.`,
    );
}

/** The project a report URL will be filed under (SPEC §2), or null when it does not parse. */
function projectOfUrl(url: string): string | null {
  try {
    return projectName(new URL(url.trim()).hostname);
  } catch {
    return null;
  }
}

/**
 * Wraps every method of `inner` whose first parameter is the user id: `rules` decide for the
 * methods they name; any other method refuses a project-limited key and passes the user id.
 * `skip` names methods that do not take a user id (passed through as they are).
 */
function wrap<T extends object>(
  inner: T,
  rules: Partial<Record<keyof T, (actor: Actor, ...rest: never[]) => unknown>>,
  skip: readonly (keyof T)[],
  what: string,
): T {
  const out: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(inner) as [string, (...args: unknown[]) => unknown][]) {
    const rule = rules[name as keyof T] as ((actor: Actor, ...rest: unknown[]) => unknown) | undefined;
    if (skip.includes(name as keyof T)) out[name] = fn;
    else if (rule) out[name] = (who: Principal, ...rest: unknown[]) => rule(actorOf(who), ...rest);
    else
      out[name] = (who: Principal, ...rest: unknown[]) => {
        const actor = actorOf(who);
        requireEveryProject(actor, what);
        return fn(actor.orgId, ...rest);
      };
  }
  return out as T;
}

type Reports = OwnerServices['reports'];

/** An empty walk (a project the key does not see: as the list, no rows). */
async function* nothing(): AsyncGenerator<never> {}
type Projects = OwnerServices['projects'];

export function scopedReports(db: Db, inner: Reports): Services['reports'] {
  /** the report exists, is the user's and in a project the actor sees; else 404 */
  async function visible(actor: Actor, id: number): Promise<void> {
    if (actor.projects === null) return;
    const project = await findReportProject(db, id, actor.orgId);
    if (project === null || !seesProject(actor, project)) throw notFound('No such report.');
  }
  const read =
    <A extends unknown[], R>(fn: (userId: number, id: number, ...rest: A) => Promise<R>) =>
    async (actor: Actor, id: number, ...rest: A): Promise<R> => {
      requireScope(actor, 'read');
      await visible(actor, id);
      return fn(actor.orgId, id, ...rest);
    };
  const write =
    <A extends unknown[], R>(fn: (userId: number, id: number, ...rest: A) => Promise<R>) =>
    async (actor: Actor, id: number, ...rest: A): Promise<R> => {
      requireScope(actor, 'write');
      await visible(actor, id);
      return fn(actor.orgId, id, ...rest);
    };

  /** the list rule, for `list` and `listText` (whose rows are read by `rows`) */
  const listed =
    <T>(
      list: (userId: number, q: ListReportsQuery) => Promise<Page<T>>,
      rows: (ids: number[]) => Promise<T[]>,
    ) =>
    async (actor: Actor, q: ListReportsQuery): Promise<Page<T>> => {
      requireScope(actor, 'read');
      if (actor.projects === null) return list(actor.orgId, q);
      const asked = q.project ? projectName(q.project) : undefined;
      if (asked !== undefined) {
        if (!seesProject(actor, asked)) return { items: [], total: 0 };
        return list(actor.orgId, q);
      }
      // one project: the list of that project (its counters, its indexes)
      if (actor.projects.length === 1) return list(actor.orgId, { ...q, project: actor.projects[0]! });
      // several: counted and read through the indexes with `project IN (…)`
      const { perPage, page, sortBy, sort, ...filter } = resolveReportsQuery(q);
      const f = { ...filter, projects: actor.projects };
      const total = await countReports(db, actor.orgId, f);
      const offset = (page - 1) * perPage;
      if (offset >= total) return { items: [], total };
      const ids = await listReportIds(db, actor.orgId, { ...f, sortBy, sort, limit: perPage, offset });
      return { items: await rows(ids), total };
    };

  const listedText = listed(inner.listText, (ids) => summaryTextsByIds(db, ids));
  const rules: Partial<Record<keyof Reports, (actor: Actor, ...rest: never[]) => unknown>> = {
    list: listed(inner.list, (ids) => summariesByIds(db, ids)),
    listText: listedText,
    async listAnswer(actor: Actor, q: ListReportsQuery, answer: Parameters<Reports['listAnswer']>[2]) {
      requireScope(actor, 'read');
      // kept answers are a whole organisation's lists; a key limited to projects is answered fresh
      if (actor.projects === null) return inner.listAnswer(actor.orgId, q, answer);
      return answer.render(await listedText(actor, q));
    },
    walk(actor: Actor, q: Parameters<Reports['walk']>[1], options: Parameters<Reports['walk']>[2] = {}) {
      // checked when called, before anything is streamed
      requireScope(actor, 'read');
      if (actor.projects === null) return inner.walk(actor.orgId, q, options);
      // a batch spans any project
      if (options.batch !== undefined) requireEveryProject(actor, "listing a batch's reports");
      const asked = q.project ? projectName(q.project) : undefined;
      if (asked !== undefined && !seesProject(actor, asked)) return nothing();
      return inner.walk(actor.orgId, q, { ...options, projects: actor.projects });
    },
    getOwned: read(inner.getOwned),
    getOwnedText: read(inner.getOwnedText),
    get: read(inner.get),
    runs: read(inner.runs),
    run: read(inner.run),
    diff: read(inner.diff),
    async create(actor: Actor, input: Parameters<Reports['create']>[1]) {
      requireScope(actor, 'write');
      if (actor.projects !== null) {
        const project = projectOfUrl(input.url);
        // an unparseable URL goes on to the service's own 422
        if (project !== null && !seesProject(actor, project))
          throw forbidden(
            `Forbidden: this API key is limited to projects (${actor.projects.join(', ')}); ${project} is not one of them.`,
          );
      }
      return inner.create(actor.orgId, input);
    },
    update: write(inner.update),
    delete: write(inner.delete),
    reaudit: write(inner.reaudit),
    async trends(actor: Actor, ids: number[]) {
      requireScope(actor, 'read');
      const all = await inner.trends(actor.orgId, ids);
      if (actor.projects === null) return all;
      // only the projects it sees (dropped ids: as if not the user's)
      for (const id of [...all.keys()]) {
        const project = await findReportProject(db, id, actor.orgId);
        if (project === null || !seesProject(actor, project)) all.delete(id);
      }
      return all;
    },
  };
  return wrap(
    inner,
    rules,
    ['forViewer', 'verifyPassword', 'pageHistory'],
    'this operation',
  ) as Services['reports'];
}

export function scopedProjects(db: Db, inner: Projects): Services['projects'] {
  const listed = async (actor: Actor, q: Parameters<Projects['list']>[1]): Promise<Page<ProjectSummary>> => {
    requireScope(actor, 'read');
    if (actor.projects === null) return inner.list(actor.orgId, q);
    // a handful of projects: read each, then filter, sort and page here as the SQL would
    const { search, sortBy, sort, perPage, page } = resolveProjectsQuery(q);
    const rows = (await Promise.all(actor.projects.map((p) => findProject(db, actor.orgId, p)))).filter(
      (r) => r !== null && (!search || r.name.includes(search.toLowerCase())),
    ) as NonNullable<Awaited<ReturnType<typeof findProject>>>[];
    const dir = sort === 'asc' ? 1 : -1;
    rows.sort((a, b) => {
      if (sortBy === 'created_at' && a.createdAt !== b.createdAt)
        return a.createdAt < b.createdAt ? -dir : dir;
      return a.name < b.name ? -dir : a.name > b.name ? dir : 0;
    });
    const items: ProjectSummary[] = rows
      .slice((page - 1) * perPage, page * perPage)
      .map((r) => ({ project: r.name, createdAt: r.createdAt, reportsCount: r.reportsCount }));
    return { items, total: rows.length };
  };
  const rules: Partial<Record<keyof Projects, (actor: Actor, ...rest: never[]) => unknown>> = {
    list: listed,
    async listAnswer(
      actor: Actor,
      q: Parameters<Projects['list']>[1],
      answer: Parameters<Projects['listAnswer']>[2],
    ) {
      requireScope(actor, 'read');
      // kept answers are a whole organisation's lists; a key limited to projects is answered fresh
      if (actor.projects === null) return inner.listAnswer(actor.orgId, q, answer);
      return answer.render(await listed(actor, q));
    },
    async delete(actor: Actor, name: string) {
      requireScope(actor, 'write');
      if (!seesProject(actor, projectName(name))) throw notFound('No such project.');
      return inner.delete(actor.orgId, name);
    },
    // a project's page and settings: a key limited to projects reaches only its own
    async get(actor: Actor, name: string) {
      requireScope(actor, 'read');
      if (!seesProject(actor, projectName(name))) throw notFound('No such project.');
      return inner.get(actor.orgId, name);
    },
    async put(actor: Actor, name: string, body: Parameters<Projects['put']>[2]) {
      requireScope(actor, 'write');
      if (!seesProject(actor, projectName(name))) throw notFound('No such project.');
      return inner.put(actor.orgId, name, body, authorOf(actor));
    },
    async patch(actor: Actor, name: string, body: Parameters<Projects['patch']>[2]) {
      requireScope(actor, 'write');
      if (!seesProject(actor, projectName(name))) throw notFound('No such project.');
      return inner.patch(actor.orgId, name, body, authorOf(actor));
    },
    // a project's ignore rules and issue states: as its settings
    async ignoreRules(actor: Actor, name: string) {
      requireScope(actor, 'read');
      if (!seesProject(actor, projectName(name))) throw notFound('No such project.');
      return inner.ignoreRules(actor.orgId, name);
    },
    async addIgnoreRule(actor: Actor, name: string, body: Parameters<Projects['addIgnoreRule']>[2]) {
      requireScope(actor, 'write');
      if (!seesProject(actor, projectName(name))) throw notFound('No such project.');
      return inner.addIgnoreRule(actor.orgId, name, body, authorOf(actor));
    },
    async removeIgnoreRule(actor: Actor, name: string, ruleId: string) {
      requireScope(actor, 'write');
      if (!seesProject(actor, projectName(name))) throw notFound('No such project.');
      return inner.removeIgnoreRule(actor.orgId, name, ruleId, authorOf(actor));
    },
    async issues(actor: Actor, name: string, q: Parameters<Projects['issues']>[2]) {
      requireScope(actor, 'read');
      if (!seesProject(actor, projectName(name))) throw notFound('No such project.');
      return inner.issues(actor.orgId, name, q);
    },
    async crawl(actor: Actor, name: string) {
      requireScope(actor, 'write');
      if (!seesProject(actor, projectName(name))) throw notFound('No such project.');
      return inner.crawl(actor.orgId, name);
    },
  };
  return wrap(inner, rules, [], 'this operation') as Services['projects'];
}

export function scopedWebhooks(inner: OwnerServices['webhooks']): Services['webhooks'] {
  type W = OwnerServices['webhooks'];
  const reads = ['list', 'get', 'deliveries', 'delivery'] as const;
  const rules: Partial<Record<keyof W, (actor: Actor, ...rest: never[]) => unknown>> = {};
  for (const [name, fn] of Object.entries(inner) as [keyof W, (...args: unknown[]) => unknown][]) {
    if (name === 'emit' || name === 'attempt') continue;
    const scope: KeyScope = (reads as readonly string[]).includes(name) ? 'read' : 'write';
    rules[name] = (actor: Actor, ...rest: unknown[]) => {
      requireScope(actor, scope);
      requireEveryProject(actor, 'managing webhooks');
      return fn(actor.orgId, ...rest);
    };
  }
  return wrap(inner, rules, ['emit', 'attempt'], 'managing webhooks') as Services['webhooks'];
}
