import type { ImageTag } from '../../artifacts/types.js';
import { clip, listDetails, plural, tableDetails, type CheckDefinition } from '../types.js';

/**
 * Why an image without alt is not judged (a visitor never meets it), or null when it is: inside
 * <noscript> (text, not an element, when scripts run), hidden by itself or an ancestor (`hidden`,
 * inline display:none), or marked decorative with role="presentation"/"none". As axe (Lighthouse's
 * image-alt) does for hidden and presentational images.
 */
export function notJudgedReason(i: ImageTag): string | null {
  if (i.inNoscript) return 'inside <noscript>';
  if (i.hidden) return 'hidden (hidden attribute or display:none)';
  if (i.role === 'presentation' || i.role === 'none') return `role="${i.role}" (decorative)`;
  return null;
}

const check: CheckDefinition = {
  id: 'image_keywords',
  category: 'seo',
  priority: 'high',
  title: 'Every image has an alt attribute',
  failTitle: 'Some images have no alt attribute',
  howToFix:
    'Give every <img> an alt attribute: a short description of what it shows, or alt="" for a purely decorative image.',
  failsWhen:
    'an `<img>` a visitor sees has no `alt` attribute (`alt=""` is fine: decorative). Not judged, and listed as information: images inside `<noscript>`, under an element with `hidden` or an inline `display:none` (or with one themselves), or with `role="presentation"`/`"none"`',
  needsContent: true,
  run(a) {
    if (a.images.length === 0) return { passed: true, message: 'The page has no images.', value: 0 };
    const missing: string[] = [];
    const skipped: string[][] = [];
    let judged = 0;
    for (const i of a.images) {
      const why = i.alt === null ? notJudgedReason(i) : null;
      if (why !== null) {
        skipped.push([clip(i.src ?? '(no src)', 200), why]);
        continue;
      }
      judged++;
      if (i.alt === null) missing.push(clip(i.src ?? '(no src)', 200));
    }
    const info =
      skipped.length === 0
        ? ''
        : ` ${plural(skipped.length, 'image')} without alt ${skipped.length === 1 ? 'is' : 'are'} not judged: a visitor never sees ${skipped.length === 1 ? 'it' : 'them'} (hidden, inside <noscript>, or role="presentation").`;
    if (missing.length === 0) {
      const all =
        judged === 0
          ? 'No image a visitor sees lacks an alt attribute.'
          : judged === 1
            ? "The page's only image has an alt attribute."
            : `All ${plural(judged, 'image')} have an alt attribute.`;
      return {
        passed: true,
        message: all + info,
        value: 0,
        ...(skipped.length > 0 ? { details: tableDetails(['image', 'not judged because'], skipped) } : {}),
      };
    }
    return {
      passed: false,
      message: `${missing.length} of the page's ${plural(judged, 'image')} ${missing.length === 1 ? 'has' : 'have'} no alt attribute.${info}`,
      value: missing.length,
      details: listDetails(missing),
    };
  },
};

export default check;
