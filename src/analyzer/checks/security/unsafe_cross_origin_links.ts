import { clip, listDetails, type CheckDefinition } from '../types.js';

const check: CheckDefinition = {
  id: 'unsafe_cross_origin_links',
  category: 'security',
  priority: 'medium',
  title: 'Links to other sites that open a new tab are safe',
  failTitle: 'Links to other sites open a new tab without rel="noopener"',
  howToFix:
    'Add rel="noopener" (or rel="noreferrer") to links with target="_blank" that point to other sites, so the opened page cannot reach back through window.opener.',
  failsWhen: 'a link to another host has `target="_blank"` without `rel="noopener"` or `rel="noreferrer"`',
  needsContent: true,
  run(a) {
    const unsafe = a.anchors.filter(
      (x) =>
        x.internal === false &&
        x.target !== null &&
        x.target.trim().toLowerCase() === '_blank' &&
        !x.rel.includes('noopener') &&
        !x.rel.includes('noreferrer'),
    );
    if (unsafe.length === 0)
      return { passed: true, message: 'No external link opens a new tab without noopener.', value: 0 };
    return {
      passed: false,
      message: `${unsafe.length} external link${unsafe.length === 1 ? '' : 's'} with target="_blank" lack${unsafe.length === 1 ? 's' : ''} rel="noopener".`,
      value: unsafe.length,
      details: listDetails(unsafe.map((x) => clip(x.url ?? x.href ?? '', 200))),
    };
  },
};

export default check;
