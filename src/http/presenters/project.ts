// Project → API JSON.
import type { ProjectSummary } from '../../services/projects/types.js';

export function presentProject(p: ProjectSummary) {
  return { project: p.project, created_at: p.createdAt, reports_count: p.reportsCount };
}
