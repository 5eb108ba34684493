import type { CheckDefinition } from '../types.js';

// Informational (docs/checks.md): `noai` / `noimageai` ask AI systems not to train on the page
// or its images; the check reports them and never fails.
const check: CheckDefinition = {
  id: 'ai_directives',
  category: 'ai',
  priority: 'low',
  title: 'noai / noimageai directives reported',
  failTitle: 'noai / noimageai directives reported',
  howToFix:
    'Nothing to fix: `noai` and `noimageai` are a choice. They go in `<meta name="robots" content="noai, noimageai">` or an `X-Robots-Tag` header; remove them to let AI systems use the page.',
  failsWhen:
    'never (informational): lists the `noai` and `noimageai` directives of the robots meta tags and the X-Robots-Tag header',
  needsContent: false,
  run(a) {
    const found = a.indexing.aiDirectives;
    return {
      passed: true,
      message:
        found.length === 0
          ? 'The page sets neither noai nor noimageai.'
          : `The page asks AI systems to keep away: ${found.join(', ')}.`,
      value: found,
    };
  },
};

export default check;
