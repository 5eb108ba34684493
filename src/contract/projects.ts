// The projects' contract: the path parameter, the list query (the list contract,
// src/contract/lists.ts, under the name the API documents), the answers and the presenter.
import { Type, type Static } from 'typebox';
import { dateTime, NO_NUL, withExample } from './common.js';
import { ListProjectsParams } from './lists.js';
import { paginated } from './pagination.js';
import { listExample } from './pagination.js';

export { ListProjectsParams as ListProjectsQuery };

/** A project as listed (the presenter's input; the projects service answers it). */
export interface ProjectSummary {
  project: string;
  /** when its first (current) report was stored */
  createdAt: string;
  reportsCount: number;
}

export const ProjectParams = Type.Object({
  project: Type.String({
    minLength: 1,
    maxLength: 255,
    pattern: NO_NUL,
    description: 'Project name (a host name).',
  }),
});
export type ProjectParams = Static<typeof ProjectParams>;

export const Project = Type.Object(
  {
    project: Type.String(),
    created_at: dateTime('When its first report was stored.'),
    reports_count: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);

export const project = {
  project: 'example.com',
  created_at: '2026-11-25T22:54:35.584Z',
  reports_count: 1,
};

export const projectListMeta = listExample('https://pagegrade.example.com/api/v1/projects');

export const ProjectList = withExample(paginated(Project), { data: [project], ...projectListMeta });

export const ProjectDeleted = Type.Object(
  {
    project: Type.String(),
    object: Type.Literal('project'),
    deleted: Type.Literal(true),
    reports_deleted: Type.Integer({ minimum: 0 }),
  },
  {
    additionalProperties: false,
    examples: [{ project: 'example.com', object: 'project', deleted: true, reports_deleted: 3 }],
  },
);

/** A project as the API shows it. */
export function presentProject(p: ProjectSummary): Static<typeof Project> {
  return { project: p.project, created_at: p.createdAt, reports_count: p.reportsCount };
}
