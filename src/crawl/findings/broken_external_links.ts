import { answer, externalLinks } from './context.js';
import type { FindingRule } from './types.js';

const rule: FindingRule = {
  id: 'broken_external_links',
  priority: 'medium',
  title: 'Links to other sites that answer 4xx/5xx or cannot be fetched',
  find: (ctx) => externalLinks(ctx, (c) => c.verdict === 'broken', answer),
};

export default rule;
