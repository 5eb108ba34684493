import { duplicates } from './context.js';
import type { FindingRule } from './types.js';

const rule: FindingRule = {
  id: 'duplicate_titles',
  priority: 'medium',
  title: 'Pages that share a title',
  find(ctx) {
    return duplicates(ctx, 'title');
  },
};

export default rule;
