// The registry: one import line per check, in the order reports list them.
// Adding a check = its file in checks/<category>/<id>.ts, its test beside it, one line here.
import type { CheckDefinition } from './types.js';

export const checks: readonly CheckDefinition[] = [
];
