// project_issues and project_rule_changes (docs/sites.md, "Issue states and ignore rules"): a
// project's issue states across its crawls, written in chunks when a crawl ends
// (src/services/batches/issue-states.ts), listed by state and kind; and the change log of its
// ignore rules.
import { sql } from 'kysely';
import { dialectOf, type Db } from './database.js';
import type { ProjectIssuesTable } from './issue-tables.js';
import { toIso, toNumber } from './sql-helpers.js';

export type IssueKind = ProjectIssuesTable['kind'];
export type IssueState = ProjectIssuesTable['state'];

export interface IssueRow {
  kind: IssueKind;
  issueId: string;
  url: string;
  state: IssueState;
  priority: string;
  title: string;
  detail: string | null;
  firstBatchId: number;
  batchId: number;
  ruleId: string | null;
  reason: string | null;
  updatedAt: string;
}

/** A page of a batch as its issue states read it: its failed and ignored checks as JSON text. */
export interface PageChecksRow {
  id: number;
  url: string;
  /** the facts' `failed` array (JSON text); null: the page was not audited */
  failed: string | null;
  /** the facts' `ignored` array (JSON text); null: none, or not audited */
  ignored: string | null;
}

/**
 * Up to `limit` of a batch's pages after page id `afterId`, in id order, with only their failed
 * and ignored checks taken out of the facts by the database (json_extract, ->): the facts with
 * their links are never sent to, parsed or held by the process — the issue states of a
 * 100,000-page crawl read 500 pages at a time.
 */
export async function pageChecksAfter(
  db: Db,
  batchId: number,
  afterId: number,
  limit: number,
): Promise<PageChecksRow[]> {
  const pg = dialectOf(db) === 'postgres';
  const part = (key: 'failed' | 'ignored') =>
    pg
      ? sql<string | null>`CASE WHEN state = 'done' THEN (facts::json -> ${key})::text END`
      : sql<string | null>`CASE WHEN state = 'done' THEN json_extract(facts, ${`$.${key}`}) END`;
  const rows = await db
    .selectFrom('batch_pages')
    .select(['id', 'url'])
    .select([part('failed').as('failed'), part('ignored').as('ignored')])
    .where('batch_id', '=', batchId)
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ id: toNumber(r.id), url: r.url, failed: r.failed, ignored: r.ignored }));
}

const COLUMNS = [
  'kind',
  'issue_id',
  'url',
  'state',
  'priority',
  'title',
  'detail',
  'first_batch_id',
  'batch_id',
  'rule_id',
  'reason',
  'updated_at',
] as const;

type Raw = Omit<Pick<ProjectIssuesTable, (typeof COLUMNS)[number]>, 'updated_at'> & {
  updated_at: Date | string;
};

const toRow = (r: Raw): IssueRow => ({
  kind: r.kind,
  issueId: r.issue_id,
  url: r.url,
  state: r.state,
  priority: r.priority,
  title: r.title,
  detail: r.detail,
  firstBatchId: toNumber(r.first_batch_id),
  batchId: toNumber(r.batch_id),
  ruleId: r.rule_id,
  reason: r.reason,
  updatedAt: toIso(r.updated_at),
});

/** The newest crawl whose end set the project's states (null: none yet). */
export async function lastIssuesBatch(db: Db, userId: number, project: string): Promise<number | null> {
  const row = await db
    .selectFrom('project_issues')
    .select((eb) => eb.fn.max('batch_id').as('b'))
    .where('org_id', '=', userId)
    .where('project', '=', project)
    .executeTakeFirst();
  return row?.b === null || row?.b === undefined ? null : toNumber(row.b);
}

/** The stored issues of these pages of the project (a chunk of a crawl's pages). */
export async function issuesOfUrls(
  db: Db,
  userId: number,
  project: string,
  urls: string[],
): Promise<IssueRow[]> {
  if (urls.length === 0) return [];
  const rows = await db
    .selectFrom('project_issues')
    .select(COLUMNS)
    .where('org_id', '=', userId)
    .where('project', '=', project)
    .where('url', 'in', urls)
    .execute();
  return rows.map(toRow);
}

/** rows per INSERT (13 values a row: well under either dialect's limit of parameters) */
const INSERT_CHUNK = 200;

/** Writes these issues' states (insert, or replace the row of the same key). */
export async function upsertIssues(db: Db, userId: number, project: string, rows: IssueRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    const values = rows.slice(i, i + INSERT_CHUNK).map((r) => ({
      org_id: userId,
      project,
      kind: r.kind,
      issue_id: r.issueId,
      url: r.url,
      state: r.state,
      priority: r.priority,
      title: r.title,
      detail: r.detail,
      first_batch_id: r.firstBatchId,
      batch_id: r.batchId,
      rule_id: r.ruleId,
      reason: r.reason,
      updated_at: r.updatedAt,
    }));
    await db
      .insertInto('project_issues')
      .values(values)
      .onConflict((oc) =>
        oc.columns(['org_id', 'project', 'kind', 'issue_id', 'url']).doUpdateSet((eb) => ({
          state: eb.ref('excluded.state'),
          priority: eb.ref('excluded.priority'),
          title: eb.ref('excluded.title'),
          detail: eb.ref('excluded.detail'),
          first_batch_id: eb.ref('excluded.first_batch_id'),
          batch_id: eb.ref('excluded.batch_id'),
          rule_id: eb.ref('excluded.rule_id'),
          reason: eb.ref('excluded.reason'),
          updated_at: eb.ref('excluded.updated_at'),
        })),
      )
      .execute();
  }
}

/**
 * The end of a crawl's states (set-based, whatever the crawl's size): issues fixed in an
 * earlier crawl are forgotten, and those the crawl before had and this one did not find become
 * `fixed` by it.
 */
export async function closeIssues(
  db: Db,
  userId: number,
  project: string,
  batchId: number,
  now: string,
): Promise<void> {
  await db
    .deleteFrom('project_issues')
    .where('org_id', '=', userId)
    .where('project', '=', project)
    .where('state', '=', 'fixed')
    .where('batch_id', '<', batchId)
    .execute();
  await db
    .updateTable('project_issues')
    .set({ state: 'fixed', batch_id: batchId, rule_id: null, reason: null, updated_at: now })
    .where('org_id', '=', userId)
    .where('project', '=', project)
    .where('batch_id', '<', batchId)
    .execute();
}

/** The findings' pages this crawl found fixed (its stored findings list them). */
export async function fixedFindingPages(
  db: Db,
  userId: number,
  project: string,
  batchId: number,
): Promise<{ issueId: string; url: string; detail: string | null }[]> {
  const rows = await db
    .selectFrom('project_issues')
    .select(['issue_id', 'url', 'detail'])
    .where('org_id', '=', userId)
    .where('project', '=', project)
    .where('kind', '=', 'finding')
    .where('state', '=', 'fixed')
    .where('batch_id', '=', batchId)
    .orderBy('issue_id')
    .orderBy('url')
    .execute();
  return rows.map((r) => ({ issueId: r.issue_id, url: r.url, detail: r.detail }));
}

export interface IssueFilter {
  state?: IssueState | undefined;
  kind?: IssueKind | undefined;
}

/** A page of the project's issues (kind, issue id, url order) and how many match. */
export async function listIssues(
  db: Db,
  userId: number,
  project: string,
  f: IssueFilter & { limit: number; offset: number },
): Promise<{ items: IssueRow[]; total: number }> {
  let q = db.selectFrom('project_issues').where('org_id', '=', userId).where('project', '=', project);
  if (f.state) q = q.where('state', '=', f.state);
  if (f.kind) q = q.where('kind', '=', f.kind);
  const count = await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
  const total = toNumber(count?.n ?? 0);
  if (f.offset >= total) return { items: [], total };
  const rows = await q
    .select(COLUMNS)
    .orderBy('kind')
    .orderBy('issue_id')
    .orderBy('url')
    .limit(f.limit)
    .offset(f.offset)
    .execute();
  return { items: rows.map(toRow), total };
}

/** A project deleted: its states and its rules' log go with it. */
export async function deleteProjectIssues(db: Db, userId: number, project: string): Promise<void> {
  await db.deleteFrom('project_issues').where('org_id', '=', userId).where('project', '=', project).execute();
  await db
    .deleteFrom('project_rule_changes')
    .where('org_id', '=', userId)
    .where('project', '=', project)
    .execute();
}

export interface RuleChangeRow {
  id: number;
  action: 'add' | 'remove' | 'replace';
  ruleId: string | null;
  rules: string;
  via: 'api' | 'dashboard';
  keyId: number | null;
  keyPrefix: string | null;
  createdAt: string;
}

export async function insertRuleChange(
  db: Db,
  userId: number,
  project: string,
  c: Omit<RuleChangeRow, 'id'>,
): Promise<void> {
  await db
    .insertInto('project_rule_changes')
    .values({
      org_id: userId,
      project,
      action: c.action,
      rule_id: c.ruleId,
      rules: c.rules,
      via: c.via,
      key_id: c.keyId,
      key_prefix: c.keyPrefix,
      created_at: c.createdAt,
    })
    .execute();
}

/** The newest changes of the project's rules first (at most `limit`). */
export async function listRuleChanges(
  db: Db,
  userId: number,
  project: string,
  limit: number,
): Promise<RuleChangeRow[]> {
  const rows = await db
    .selectFrom('project_rule_changes')
    .select(['id', 'action', 'rule_id', 'rules', 'via', 'key_id', 'key_prefix', 'created_at'])
    .where('org_id', '=', userId)
    .where('project', '=', project)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: toNumber(r.id),
    action: r.action,
    ruleId: r.rule_id,
    rules: r.rules,
    via: r.via,
    keyId: r.key_id === null ? null : toNumber(r.key_id),
    keyPrefix: r.key_prefix,
    createdAt: toIso(r.created_at),
  }));
}
