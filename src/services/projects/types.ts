// The projects feature's types: a project as listed, its statistics, the service.
import type { ListProjectsQuery, Page } from '../../contract/lists.js';

// a project as listed is the contract's (the presenter's input)
export type { ProjectSummary } from '../../contract/projects.js';
import type { ProjectSummary } from '../../contract/projects.js';

/** What a project's reports say (the dashboard's project rows). */
export interface ProjectStats {
  reports: number;
  averageScore: number;
  worstScore: number;
  /** reports by result band */
  bands: Record<'good' | 'decent' | 'bad', number>;
  lastAuditAt: string;
}
export interface ProjectsServices {
  list(userId: number, query: ListProjectsQuery): Promise<Page<ProjectSummary>>;
  /**
   * deletes the project and all its reports in one transaction; 404 when it does not exist.
   * `project` is a name as a user gives it (case and one leading www. do not matter).
   */
  delete(userId: number, project: string): Promise<{ reportsDeleted: number }>;
  /** the statistics of these projects of the user (one aggregate query), by name */
  stats(userId: number, projects: string[]): Promise<Map<string, ProjectStats>>;
}
