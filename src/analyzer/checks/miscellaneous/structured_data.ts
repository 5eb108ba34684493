import type { CheckDefinition } from '../types.js';

const check: CheckDefinition = {
  id: 'structured_data',
  category: 'miscellaneous',
  priority: 'medium',
  title: 'The page has structured data',
  failTitle: 'The page has no structured data',
  howToFix:
    'Describe the page with schema.org JSON-LD (<script type="application/ld+json">) and add Open Graph and Twitter card meta tags, so search engines and social networks show rich previews.',
  failsWhen:
    'no JSON-LD, microdata (`itemscope`), RDFa (`typeof`/`vocab`), Open Graph (`og:*`) or Twitter card (`twitter:*`)',
  needsContent: true,
  run(a) {
    const kinds: string[] = [];
    if (a.jsonLd.length > 0) kinds.push(`JSON-LD (${a.jsonLd.length})`);
    if (a.hasMicrodata)
      kinds.push(
        a.microdataTypes.length ? `Microdata (${a.microdataTypes.slice(0, 5).join(', ')})` : 'Microdata',
      );
    if (a.hasRdfa) kinds.push('RDFa');
    if (a.metas.some((m) => m.property !== null && m.property.startsWith('og:'))) kinds.push('Open Graph');
    if (a.metas.some((m) => (m.name ?? m.property ?? '').startsWith('twitter:'))) kinds.push('Twitter card');
    if (kinds.length === 0) {
      return {
        passed: false,
        message: 'The page has no JSON-LD, microdata, RDFa, Open Graph or Twitter card data.',
        value: [],
      };
    }
    return { passed: true, message: `The page has structured data: ${kinds.join(', ')}.`, value: kinds };
  },
};

export default check;
