import { duplicates } from './context.js';
import type { FindingRule } from './types.js';

const rule: FindingRule = {
  id: 'duplicate_descriptions',
  priority: 'low',
  title: 'Pages that share a meta description',
  find(ctx) {
    return duplicates(ctx, 'description');
  },
};

export default rule;
