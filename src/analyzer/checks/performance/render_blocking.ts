// Resources in <head> that stop the first paint, counted together: synchronous external scripts
// and stylesheets that apply to every medium. A few are normal; many delay the first paint.
// (defer_javascript fails on any synchronous head script; this check judges the total.)
import type { CheckDefinition } from '../types.js';
import { clip, plural, tableDetails } from '../types.js';

/** A stylesheet blocks rendering unless its media cannot match the screen or is conditional. */
export function blockingMedia(media: string | null): boolean {
  if (media === null) return true;
  const m = media.trim().toLowerCase();
  return m === '' || m === 'all' || m === 'screen' || m === 'only screen';
}

const check: CheckDefinition = {
  id: 'render_blocking',
  category: 'performance',
  priority: 'medium',
  title: 'Few resources block the first render',
  failTitle: 'Resources block the first render',
  howToFix:
    'Add defer (or async, or type="module") to scripts in the <head>; inline the critical CSS and load the rest with media attributes or after the first paint, and merge small stylesheets.',
  failsWhen: 'the synchronous external scripts plus the all-media stylesheets in `<head>` exceed the limit',
  needsContent: true,
  thresholds: {
    max_resources: {
      default: 3,
      description: 'render-blocking scripts and stylesheets in <head> allowed, together',
    },
  },
  run(a, t) {
    const max = t.max_resources ?? 3;
    const scripts = a.scripts.filter(
      (s) => s.inHead && s.src !== null && !s.async && !s.defer && !s.module && !s.nonExecutable,
    );
    const styles = a.links.filter(
      (l) =>
        l.inHead &&
        l.href !== null &&
        l.rel.includes('stylesheet') &&
        !l.rel.includes('alternate') &&
        blockingMedia(l.media),
    );
    const rows: string[][] = [
      ...scripts.map((s) => ['script', clip(s.url ?? s.src ?? '', 120)]),
      ...styles.map((l) => ['stylesheet', clip(l.url ?? l.href ?? '', 120)]),
    ];
    const details = rows.length ? { details: tableDetails(['type', 'url'], rows) } : {};
    const value = rows.length;
    const parts = `${plural(scripts.length, 'synchronous script')} and ${plural(styles.length, 'stylesheet')}`;
    if (value > max) {
      return {
        passed: false,
        message: `${value} resources in <head> block the first render (${parts}); at most ${max} allowed — each is a request the browser waits for before painting.`,
        value,
        ...details,
      };
    }
    return {
      passed: true,
      message:
        value === 0
          ? 'No external script or stylesheet in <head> blocks rendering.'
          : `${value} resource${value === 1 ? '' : 's'} in <head> block${value === 1 ? 's' : ''} the first render (${parts}), within the ${max} allowed.`,
      value,
      ...details,
    };
  },
};

export default check;
