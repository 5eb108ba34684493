// The projects feature's types: a project as listed, its statistics, the service.
import type { ListProjectsQuery, Page } from '../../contract/lists.js';
import type { ProjectSettingsBody } from '../../contract/project-settings.js';
import type { ResultBand } from '../../analyzer/types.js';
import type { Batch } from '../batches/types.js';
export type { ProjectSettings, ProjectSettingsBody } from '../../contract/project-settings.js';
import type { IgnoreRule, IgnoreRuleBody, ProjectSettings } from '../../contract/project-settings.js';
import type { RuleChange } from '../../contract/project-issues.js';
import type { IssueRow, IssueState, IssueKind } from '../../store/issues.repository.js';

// a project as listed is the contract's (the presenter's input)
export type { ProjectSummary } from '../../contract/projects.js';
import type { ProjectSummary } from '../../contract/projects.js';
import type { ListAnswer } from '../shared/list-cache.js';

/** What a project's reports say (the dashboard's project rows). */
export interface ProjectStats {
  reports: number;
  averageScore: number;
  worstScore: number;
  /** reports by result band */
  bands: Record<'good' | 'decent' | 'bad', number>;
  lastAuditAt: string;
}
/** A project's page (GET /api/v1/projects/{project}). */
export interface ProjectDetail {
  project: ProjectSummary;
  /** the newest batch whose start URL is on the project's host (any state) */
  latestCrawl: Batch | null;
  /** the mean score of the audited pages of the newest finished (done) crawl; null without one */
  siteScore: number | null;
  band: ResultBand | null;
  settings: ProjectSettings;
  /** the project's newest finished crawls (at most TREND_CRAWLS), oldest first */
  trend: ProjectTrendPoint[];
}

/** One finished crawl on the project's timeline: its stored summary (batches.summary) in brief. */
export interface ProjectTrendPoint {
  batchId: number;
  finishedAt: string | null;
  /** the mean score of the pages the crawl audited, as audited then (rounded); null when none */
  siteScore: number | null;
  band: ResultBand | null;
  audited: number;
  /** the crawl's audited pages by result band */
  bands: Record<'good' | 'decent' | 'bad', number>;
  /** the site-level findings and how many pages (or groups) each concerns */
  findings: { id: string; title: string; count: number }[];
}

/** Who changes a project's ignore rules: the API or the dashboard, and the key it signed in with (if any). */
export interface ChangeAuthor {
  via: 'api' | 'dashboard';
  keyId: number | null;
}

/** GET /api/v1/projects/{project}/issues as the service takes it. */
export interface IssuesQuery {
  state?: IssueState | undefined;
  kind?: IssueKind | undefined;
  page?: number | undefined;
  perPage?: number | undefined;
}

export interface ProjectsServices {
  list(userId: number, query: ListProjectsQuery): Promise<Page<ProjectSummary>>;
  /**
   * The finished answer of a `list` page, `answer.render`ed — kept per process while the version
   * of the user's reports is the one it was made at (a project's row changes only with it), so a
   * repeated list reads one row (docs/api.md, "Kept answers"). `answer.key` names what else the
   * answer is made from (the links' query string) and is unique to one `render`.
   */
  listAnswer(
    userId: number,
    query: ListProjectsQuery,
    answer: { key: string; render(page: Page<ProjectSummary>): ListAnswer },
  ): Promise<ListAnswer>;
  /**
   * deletes the project and all its reports in one transaction; 404 when it does not exist.
   * `project` is a name as a user gives it (case and one leading www. do not matter).
   */
  delete(userId: number, project: string): Promise<{ reportsDeleted: number }>;
  /** the statistics of these projects of the user (one aggregate query), by name */
  stats(userId: number, projects: string[]): Promise<Map<string, ProjectStats>>;
  /** the project with its latest crawl, site score and settings (no secret); 404 when not the user's */
  get(userId: number, project: string): Promise<ProjectDetail>;
  /**
   * creates the project (0 reports) with these settings, or replaces its settings (fields left
   * out take their defaults, secrets left out are removed); 422 naming a field
   */
  put(
    userId: number,
    project: string,
    body: ProjectSettingsBody,
    by?: ChangeAuthor,
  ): Promise<{ detail: ProjectDetail; created: boolean }>;
  /**
   * changes the settings given (each given field replaces that setting whole); 404 when not the
   * user's. `by`: who (a change of `ignore` is logged with it; default: the user in the dashboard)
   */
  patch(userId: number, project: string, body: ProjectSettingsBody, by?: ChangeAuthor): Promise<ProjectDetail>;
  /** the project's ignore rules and the newest changes of them; 404 when not the user's */
  ignoreRules(userId: number, project: string): Promise<{ rules: IgnoreRule[]; changes: RuleChange[] }>;
  /** adds a rule (422 naming the field: unknown id, bad url_pattern or expires_at, the same rule) */
  addIgnoreRule(userId: number, project: string, body: IgnoreRuleBody, by?: ChangeAuthor): Promise<IgnoreRule>;
  /** removes a rule; 404 when the project or the rule is not the user's */
  removeIgnoreRule(userId: number, project: string, ruleId: string, by?: ChangeAuthor): Promise<void>;
  /** a page of the project's issue states (docs/sites.md); 404 when not the user's */
  issues(userId: number, project: string, q: IssuesQuery): Promise<Page<IssueRow>>;
  /** starts a batch with the project's settings; 422 under start_url when it has none */
  crawl(userId: number, project: string): Promise<Batch>;
}
