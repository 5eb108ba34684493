import type { CheckDefinition } from '../types.js';

const check: CheckDefinition = {
  id: 'not_found_page',
  category: 'seo',
  priority: 'high',
  title: 'Missing pages answer 404',
  failTitle: 'Missing pages do not answer 404',
  howToFix:
    'Make the server answer 404 (or 410) for URLs that do not exist, with a helpful page; a 200 or a redirect to the home page ("soft 404") fills search indexes with duplicates.',
  failsWhen:
    'a random path on the site answers anything but 404 or 410. Not judged when the probe was not made or failed',
  needsContent: false,
  run(a) {
    const p = a.notFoundProbe;
    if (p === null) return { passed: null, message: 'No missing page was probed.' };
    if (p.status === null) {
      return { passed: null, message: `The probe of a missing page failed (${p.error ?? 'no answer'}).` };
    }
    if (p.status === 404 || p.status === 410) {
      return { passed: true, message: `A random missing path answered ${p.status}.`, value: p.status };
    }
    const where = p.finalUrl !== p.url ? ` after redirecting to ${p.finalUrl}` : '';
    return {
      passed: false,
      message: `A random missing path (${p.url}) answered ${p.status}${where} instead of 404.`,
      value: p.status,
    };
  },
};

export default check;
