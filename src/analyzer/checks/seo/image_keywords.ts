import { clip, listDetails, plural, type CheckDefinition } from '../types.js';

const check: CheckDefinition = {
  id: 'image_keywords',
  category: 'seo',
  priority: 'high',
  title: 'Every image has an alt attribute',
  failTitle: 'Some images have no alt attribute',
  howToFix:
    'Give every <img> an alt attribute: a short description of what it shows, or alt="" for a purely decorative image.',
  failsWhen: 'an `<img>` has no `alt` attribute (`alt=""` is fine: decorative)',
  needsContent: true,
  run(a) {
    const missing = a.images.filter((i) => i.alt === null);
    if (a.images.length === 0) return { passed: true, message: 'The page has no images.', value: 0 };
    if (missing.length === 0) {
      return {
        passed: true,
        message: `All ${plural(a.images.length, 'image')} have an alt attribute.`,
        value: 0,
      };
    }
    return {
      passed: false,
      message: `${missing.length} of the page's ${plural(a.images.length, 'image')} have no alt attribute.`,
      value: missing.length,
      details: listDetails(missing.map((i) => clip(i.src ?? '(no src)', 200))),
    };
  },
};

export default check;
