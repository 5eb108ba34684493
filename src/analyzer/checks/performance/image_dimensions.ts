// <img> without explicit width and height: the browser cannot reserve its box, so the layout
// shifts when the image arrives (Cumulative Layout Shift).
import type { CheckDefinition } from '../types.js';
import { agree, clip, plural, tableDetails } from '../types.js';

const LENGTH = /^\s*\d+(?:\.\d+)?\s*(?:px)?\s*$/i;

export function hasDimension(v: string | null): boolean {
  return v !== null && LENGTH.test(v);
}

const check: CheckDefinition = {
  id: 'image_dimensions',
  category: 'performance',
  priority: 'medium',
  title: 'Images have explicit width and height',
  failTitle: 'Some images lack explicit width and height',
  howToFix:
    'Add width and height attributes with the image\'s intrinsic size to every <img> (<img src="a.jpg" width="800" height="600">); CSS can still scale it (height: auto), and the browser reserves the right space before it loads.',
  failsWhen: 'more visible images than allowed lack a numeric `width` and `height`',
  needsContent: true,
  thresholds: {
    max_unsized: { default: 0, description: 'visible images without both width and height allowed' },
  },
  run(a, t) {
    const max = t.max_unsized ?? 0;
    let total = 0;
    const rows: (string | null)[][] = [];
    for (const img of a.images) {
      if (img.hidden || (img.src === null && img.srcset === null)) continue;
      total++;
      const w = hasDimension(img.width);
      const h = hasDimension(img.height);
      if (!w || !h) {
        const src = img.src ?? img.srcset ?? '';
        rows.push([clip(src.startsWith('data:') ? `${src.slice(0, 30)}…` : src, 100), img.width, img.height]);
      }
    }
    if (total === 0) return 'not_applicable';
    const details = rows.length ? tableDetails(['image', 'width', 'height'], rows) : undefined;
    const extra = details ? { details } : {};
    if (rows.length > max) {
      return {
        passed: false,
        message: `${rows.length} of ${plural(total, 'image')} ${agree(rows.length, 'lacks', 'lack')} a numeric width and height attribute${max > 0 ? ` (at most ${max} allowed)` : ''}, so the page shifts as ${agree(rows.length, 'it loads', 'they load')}.`,
        value: rows.length,
        ...extra,
      };
    }
    return {
      passed: true,
      message:
        rows.length === 0
          ? total === 1
            ? 'The only image declares width and height.'
            : `All ${total} images declare width and height.`
          : `${rows.length} of ${total} images lack width or height, within the ${max} allowed.`,
      value: rows.length,
      ...extra,
    };
  },
};

export default check;
