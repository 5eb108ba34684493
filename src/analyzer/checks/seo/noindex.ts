import { listDetails, type CheckDefinition } from '../types.js';

const check: CheckDefinition = {
  id: 'noindex',
  category: 'seo',
  priority: 'high',
  title: 'Search engines may index the page',
  failTitle: 'The page asks search engines not to index it',
  howToFix:
    'Remove "noindex" (or "none") from the robots meta tag and the X-Robots-Tag header, unless the page is meant to stay out of search results.',
  failsWhen:
    '`<meta name="robots|googlebot|bingbot|pagegrade">` or an `X-Robots-Tag` header (unscoped or scoped to those crawlers) says `noindex` or `none`',
  needsContent: true,
  run(a) {
    // the directives are read once per page (Artifacts.indexing, artifacts/indexing.ts)
    const found = a.indexing.noindexMetas.map((m) => `<meta name="${m.name}" content="${m.content}">`);
    if (a.indexing.noindexHeader) found.push(`X-Robots-Tag: ${a.headers['x-robots-tag']}`);
    if (found.length === 0)
      return { passed: true, message: 'No robots directive forbids indexing.', value: true };
    return {
      passed: false,
      message: `The page forbids indexing: ${found[0]}.`,
      value: false,
      details: listDetails(found),
    };
  },
};

export default check;
