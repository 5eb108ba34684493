import { externalLinks } from './context.js';
import type { FindingRule } from './types.js';

const rule: FindingRule = {
  id: 'redirected_external_links',
  priority: 'low',
  title: 'Links to other sites through a redirect',
  find: (ctx) =>
    externalLinks(
      ctx,
      (c) => c.verdict === 'ok' && c.redirectTo !== null,
      (target, c) => `${target} → ${c.redirectTo ?? '?'}`,
    ),
};

export default rule;
