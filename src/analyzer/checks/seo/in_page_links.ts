import type { CheckDefinition } from '../types.js';

const check: CheckDefinition = {
  id: 'in_page_links',
  category: 'seo',
  priority: 'medium',
  title: 'The page has a reasonable number of links',
  failTitle: 'The page has too many links',
  howToFix:
    'Keep the links on a page to the ones that help its readers (at most about 150): move long link lists to their own pages or to a sitemap.',
  failsWhen: 'more than `max_links` `<a href>` / `<area href>`',
  needsContent: true,
  thresholds: {
    max_links: { default: 150, description: 'most links (<a href>) on a page' },
  },
  run(a, t) {
    const max = t.max_links!;
    let total = 0;
    let internal = 0;
    let external = 0;
    for (const x of a.anchors) {
      if (x.href === null) continue;
      total++;
      if (x.internal === true) internal++;
      else if (x.internal === false) external++;
    }
    const split = `${internal} internal, ${external} external`;
    const details = {
      type: 'table' as const,
      headings: ['kind', 'count'],
      rows: [
        ['internal', internal],
        ['external', external],
        ['other (fragments, mailto:, javascript:…)', total - internal - external],
      ],
    };
    if (total > max) {
      return {
        passed: false,
        message: `The page has ${total} links (${split}); keep it to ${max} or fewer.`,
        value: total,
        details,
      };
    }
    return { passed: true, message: `The page has ${total} links (${split}).`, value: total, details };
  },
};

export default check;
