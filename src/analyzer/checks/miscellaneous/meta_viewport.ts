import type { CheckDefinition } from '../types.js';

const check: CheckDefinition = {
  id: 'meta_viewport',
  category: 'miscellaneous',
  priority: 'medium',
  title: 'The page has a mobile viewport',
  failTitle: 'The page has no valid mobile viewport',
  howToFix:
    'Add <meta name="viewport" content="width=device-width, initial-scale=1"> to the <head> so that phones show the page at its real width.',
  failsWhen: 'no `<meta name="viewport">`, or one that sets neither `width` nor `initial-scale`',
  needsContent: true,
  run(a) {
    const tag = a.metas.find((m) => m.name === 'viewport');
    if (!tag) return { passed: false, message: 'The page has no <meta name="viewport">.', value: null };
    const content = (tag.content ?? '').trim();
    const keys = new Set(
      content
        .toLowerCase()
        .split(/[,;]/)
        .map((p) => p.split('=')[0]!.trim()),
    );
    if (!keys.has('width') && !keys.has('initial-scale')) {
      return {
        passed: false,
        message: `The viewport "${content}" sets neither width nor initial-scale.`,
        value: content,
      };
    }
    return { passed: true, message: `The viewport is "${content}".`, value: content };
  },
};

export default check;
