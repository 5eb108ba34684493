// Offscreen images should load lazily; the first (LCP candidate) image must not.
// "Offscreen" is estimated from position (no layout here): images after the first few, or
// beyond the first elements of the body (the artifacts' likelyAboveFold).
import type { CheckDefinition } from '../types.js';
import { agree, clip, plural, tableDetails } from '../types.js';

const check: CheckDefinition = {
  id: 'lazy_images',
  category: 'performance',
  priority: 'low',
  title: 'Images load lazily where it helps',
  failTitle: 'Images are loaded eagerly offscreen, or lazily above the fold',
  howToFix:
    'Add loading="lazy" to images further down the page so they load only when scrolled to, and remove it from the first, largest image at the top (the LCP image), which should load at once (fetchpriority="high" helps).',
  failsWhen:
    'the first image (the LCP candidate) has `loading="lazy"`, or more likely-offscreen images than allowed load eagerly',
  needsContent: true,
  thresholds: {
    max_eager_offscreen: {
      default: 0,
      description: 'likely offscreen images without loading="lazy" allowed',
    },
  },
  run(a, t) {
    const max = t.max_eager_offscreen ?? 0;
    const visible = a.images.filter((i) => !i.hidden && (i.src !== null || i.srcset !== null));
    if (visible.length === 0) return 'not_applicable';
    const first = visible[0]!;
    const lcpLazy = first.likelyAboveFold && first.loading === 'lazy';
    const eager = visible.filter(
      (i) => !i.likelyAboveFold && i.loading !== 'lazy' && !(i.src !== null && i.src.startsWith('data:')),
    );
    const rows: (string | number)[][] = [];
    if (lcpLazy)
      rows.push([
        clip(first.src ?? first.srcset ?? '', 100),
        first.imageIndex + 1,
        'first image is lazy (delays LCP)',
      ]);
    for (const i of eager)
      rows.push([clip(i.src ?? i.srcset ?? '', 100), i.imageIndex + 1, 'likely offscreen, loads eagerly']);
    const details = rows.length ? { details: tableDetails(['image', 'position', 'problem'], rows) } : {};
    const problems: string[] = [];
    if (lcpLazy) problems.push('the first image, the likely LCP element, has loading="lazy"');
    if (eager.length > max) {
      problems.push(
        `${eager.length} of ${plural(visible.length, 'image')} ${agree(eager.length, 'is', 'are')} likely offscreen yet ${agree(eager.length, 'loads', 'load')} eagerly${max > 0 ? ` (at most ${max} allowed)` : ''}`,
      );
    }
    if (problems.length > 0) {
      return {
        passed: false,
        message: `${problems.join('; ')}.`.replace(/^./, (c) => c.toUpperCase()),
        value: eager.length,
        ...details,
      };
    }
    const lazyCount = visible.filter((i) => i.loading === 'lazy').length;
    return {
      passed: true,
      message:
        eager.length === 0
          ? lazyCount === 0
            ? visible.length === 1
              ? 'The only image is near the top and loads eagerly, as it should.'
              : `No image loads lazily, and none of the ${visible.length} images is likely offscreen.`
            : `${lazyCount} of ${plural(visible.length, 'image')} ${agree(lazyCount, 'loads', 'load')} lazily; the images near the top load eagerly.`
          : `${plural(eager.length, 'likely offscreen image')} ${agree(eager.length, 'loads', 'load')} eagerly, within the ${max} allowed.`,
      value: eager.length,
      ...details,
    };
  },
};

export default check;
