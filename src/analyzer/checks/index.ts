// The registry: one import line per check, and one entry per check in the list below, in the
// order reports list them. Adding a check = its file in checks/<category>/<id>.ts, its test
// beside it, and its line in both places here (registry.test.ts keeps them in step).
import type { CheckDefinition } from './types.js';

import title from './seo/title.js';

export const checks: readonly CheckDefinition[] = [
  title,
];
