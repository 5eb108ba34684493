// The builds feature's types (issue 23 §2; docs/ci.md "Builds"): a `pagegrade ci --upload` of a
// project, each URL's result stored as a run of that page's report, compared with its base.
import type { AuditReport } from '../../analyzer/types.js';
import type { Actor } from '../accounts/types.js';
import type { BuildAssertion, BuildPageData, BuildRow } from '../../store/builds.repository.js';
import type { BuildComparison } from './compare.js';

export type { BuildRow };

/** builds kept per non-base branch when PAGEGRADE_BUILDS_KEEP_PER_BRANCH is not set */
export const DEFAULT_BUILDS_KEEP_PER_BRANCH = 20;

export interface BuildInput {
  project: string;
  commitSha: string;
  branch: string;
  baseBranch?: string | null;
  ancestorSha?: string | null;
  author?: string | null;
  message?: string | null;
  runUrl?: string | null;
  pages: { url: string; report: AuditReport; figures?: Record<string, number | null>; assertions?: BuildAssertion[] }[];
}

/** A build with its pages and its comparison with the base build. */
export interface BuildView {
  build: BuildRow;
  pages: BuildPageData[];
  comparison: BuildComparison;
}

export interface BuildsServices {
  /** stores the build (each URL a run of its page's report), prunes its branch, answers it compared */
  create(actor: Actor, input: BuildInput): Promise<BuildView>;
  /** the organisation's build in a project the actor sees (404 otherwise) */
  get(actor: Actor, id: number): Promise<BuildView>;
  /** a project's builds, newest first, one branch's when given (404 for a project the actor does not see) */
  list(
    actor: Actor,
    project: string,
    q: { branch?: string; page: number; perPage: number },
  ): Promise<{ items: BuildRow[]; total: number }>;
}
