// The Kysely table types of a project's issue states and its ignore rules' log (the migration
// 2026-11-29T04-project-issues; docs/sites.md, "Issue states and ignore rules"), beside
// database.ts's (which holds the Database interface that names them).
import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date | string, string, string>;

/** A project's issue states across its crawls (src/store/issues.repository.ts, docs/sites.md). */
export interface ProjectIssuesTable {
  org_id: number;
  project: string;
  kind: 'check' | 'finding';
  issue_id: string;
  url: string;
  state: 'new' | 'persisting' | 'fixed' | 'ignored';
  priority: string;
  title: string;
  detail: string | null;
  /** the first crawl of the run of consecutive crawls that had it; batch_id: the one that set the state */
  first_batch_id: number;
  batch_id: number;
  /** ignored: the rule and its reason */
  rule_id: string | null;
  reason: string | null;
  updated_at: Timestamp;
}

/** Every change of a project's ignore rules: who (via, key), when; `rules` JSON (the rule, or the new list). */
export interface ProjectRuleChangesTable {
  id: Generated<number>;
  org_id: number;
  project: string;
  action: 'add' | 'remove' | 'replace';
  rule_id: string | null;
  rules: string;
  via: 'api' | 'dashboard';
  key_id: number | null;
  key_prefix: string | null;
  created_at: Timestamp;
}
