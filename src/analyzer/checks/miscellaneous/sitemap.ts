import type { CheckDefinition } from '../types.js';

const check: CheckDefinition = {
  id: 'sitemap',
  category: 'miscellaneous',
  priority: 'low',
  title: 'The site has a sitemap',
  failTitle: 'No sitemap was found',
  howToFix:
    'Publish an XML sitemap listing your pages (e.g. /sitemap.xml) and name it in robots.txt with a "Sitemap: https://…/sitemap.xml" line.',
  failsWhen:
    'the sitemap the fetcher looked for (robots.txt `Sitemap:` or `/sitemap.xml`) did not answer 2xx non-HTML, and robots.txt names none. Not judged when neither was fetched',
  needsContent: false,
  run(a) {
    const s = a.sitemap;
    const declared = a.robots?.parsed?.getSitemaps() ?? [];
    if (
      s !== null &&
      s.status !== null &&
      s.status >= 200 &&
      s.status < 300 &&
      s.contentType !== 'text/html' &&
      /\S/.test(s.body)
    ) {
      return { passed: true, message: `A sitemap was found at ${s.finalUrl}.`, value: s.finalUrl };
    }
    if (declared.length > 0) {
      return { passed: true, message: `robots.txt names a sitemap: ${declared[0]}.`, value: declared[0]! };
    }
    if (s === null && a.robots === null)
      return { passed: null, message: 'Neither robots.txt nor a sitemap was fetched.' };
    const why =
      s === null
        ? 'robots.txt names none'
        : s.status === null
          ? `${s.url} could not be fetched (${s.error ?? 'no answer'})`
          : s.status >= 300
            ? `${s.url} answered ${s.status}`
            : `${s.url} is not a sitemap`;
    return { passed: false, message: `No sitemap was found: ${why}.`, value: null };
  },
};

export default check;
