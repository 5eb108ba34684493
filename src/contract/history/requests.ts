// The history request schemas (docs/history.md): a run of a report, two runs compared, the
// runs list (the list contract, src/contract/lists.ts, under the name the API documents).
import { Type, type Static } from 'typebox';
import { MAX_ID } from '../common.js';
import { ListRunsParams } from '../lists.js';
import { ReportParams } from '../reports/requests.js';

export { ListRunsParams as ListRunsQuery };

const runNumber = (description: string) => Type.Integer({ minimum: 1, maximum: MAX_ID, description });

/** GET /api/v1/reports/{id}/runs/{run} */
export const RunParams = Type.Object({
  id: ReportParams.properties.id,
  run: runNumber("The run's number within its report (anything else answers 404)."),
});
export type RunParams = Static<typeof RunParams>;

/** GET /api/v1/reports/{id}/diff */
export const DiffQuery = Type.Object({
  from: Type.Optional(runNumber('The earlier run (default: the completed run before `to`).')),
  to: Type.Optional(runNumber('The later run (default: the current run).')),
});
export type DiffQuery = Static<typeof DiffQuery>;
