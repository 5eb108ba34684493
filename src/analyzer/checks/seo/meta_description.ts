import type { CheckDefinition } from '../types.js';

const check: CheckDefinition = {
  id: 'meta_description',
  category: 'seo',
  priority: 'high',
  title: 'The page has a meta description',
  failTitle: 'The page has no meta description',
  howToFix:
    'Add <meta name="description" content="…"> to the <head>: one or two sentences summing up the page, which search engines may show under the title.',
  failsWhen: 'no `<meta name="description">` (name case-insensitive), or only empty ones',
  needsContent: true,
  run(a) {
    const tags = a.metas.filter((m) => m.name === 'description');
    if (tags.length === 0)
      return { passed: false, message: 'The page has no <meta name="description">.', value: null };
    const withContent = tags.find((m) => (m.content ?? '').trim() !== '');
    if (!withContent) {
      return { passed: false, message: 'The meta description is empty.', value: '' };
    }
    const text = withContent.content!.trim();
    const extra = tags.length > 1 ? ` The page has ${tags.length} description tags; keep one.` : '';
    return {
      passed: true,
      message: `The meta description is ${[...text].length} characters long.${extra}`,
      value: text,
    };
  },
};

export default check;
