import { answer, externalLinks } from './context.js';
import type { FindingRule } from './types.js';

/** informational: the other site refused the checker (429, 403, 999), which says nothing of the link */
const rule: FindingRule = {
  id: 'blocked_external_links',
  priority: 'low',
  title: 'Links to other sites that refused the check (429, 403 or 999): not judged',
  find: (ctx) => externalLinks(ctx, (c) => c.verdict === 'blocked', answer),
};

export default rule;
