import type { CheckDefinition } from '../types.js';

const ICON_RELS = new Set(['icon', 'apple-touch-icon', 'apple-touch-icon-precomposed', 'mask-icon']);

const check: CheckDefinition = {
  id: 'favicon',
  category: 'seo',
  priority: 'medium',
  title: 'The site has a favicon',
  failTitle: 'The site has no favicon',
  howToFix:
    'Declare an icon in the <head>, e.g. <link rel="icon" href="/favicon.ico">, or serve one at /favicon.ico; browsers and search results show it beside the page.',
  failsWhen:
    'no `<link rel="icon|shortcut icon|apple-touch-icon|mask-icon" href>` and `/favicon.ico` does not answer 2xx with a non-HTML type. Not judged when nothing is declared and the probe was not made',
  needsContent: true,
  run(a) {
    const declared = a.links.find(
      (l) => l.href !== null && l.href.trim() !== '' && l.rel.some((r) => ICON_RELS.has(r)),
    );
    if (declared)
      return {
        passed: true,
        message: `The page declares an icon: ${declared.url ?? declared.href}.`,
        value: declared.url ?? declared.href,
      };
    const f = a.favicon;
    if (f === null)
      return { passed: null, message: 'The page declares no icon and /favicon.ico was not probed.' };
    if (f.status !== null && f.status >= 200 && f.status < 300 && f.contentType !== 'text/html') {
      return { passed: true, message: `The site serves ${f.finalUrl}.`, value: f.finalUrl };
    }
    const why =
      f.status === null
        ? `could not be fetched (${f.error ?? 'no answer'})`
        : f.status >= 300
          ? `answered ${f.status}`
          : 'is an HTML page';
    return { passed: false, message: `The page declares no icon and /favicon.ico ${why}.`, value: null };
  },
};

export default check;
