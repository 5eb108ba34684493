// The Kysely table types of builds (issue 23 §2; docs/ci.md "Builds"), beside database.ts's
// (which holds the Database interface that names them).
import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date | string, string, string>;

/** One `pagegrade ci --upload` of a project (src/store/builds.repository.ts). */
export interface BuildsTable {
  id: Generated<number>;
  org_id: number;
  project: string;
  /** lower-case hex, 7–40 characters */
  commit_sha: string;
  branch: string;
  base_branch: string | null;
  ancestor_sha: string | null;
  author: string | null;
  message: string | null;
  run_url: string | null;
  /** the build it was compared with when it landed (null: none, or pruned since) */
  base_build_id: number | null;
  created_at: Timestamp;
}

/** Each URL's result in a build: the run it was stored as, and what the comparison reads. */
export interface BuildPagesTable {
  id: Generated<number>;
  build_id: number;
  url: string;
  /** the URL's path and query: how two builds' pages are matched */
  path: string;
  /** null once the report is deleted (the build keeps what the comparison reads) */
  report_id: number | null;
  run_number: number;
  score: number;
  result: string;
  /** JSON: check id → {passed, title} */
  checks: string;
  /** JSON: figure id → number | null */
  figures: string;
  /** JSON: the CLI's assertion outcomes */
  assertions: string;
}
