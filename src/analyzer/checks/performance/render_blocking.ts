// Resources in <head> that stop the first paint: synchronous external scripts, and stylesheets
// that apply to every medium. (A few stylesheets are normal; synchronous scripts rarely are.)
import type { CheckDefinition } from '../types.js';
import { clip, tableDetails } from '../types.js';

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
  needsContent: true,
  thresholds: {
    max_scripts: { default: 0, description: 'synchronous external scripts in <head> allowed' },
    max_stylesheets: { default: 2, description: 'render-blocking stylesheets in <head> allowed' },
  },
  run(a, t) {
    const maxScripts = t.max_scripts ?? 0;
    const maxStyles = t.max_stylesheets ?? 2;
    const scripts = a.scripts.filter(
      (s) => s.inHead && s.src !== null && !s.async && !s.defer && !s.module && !s.nonExecutable,
    );
    const styles = a.links.filter(
      (l) =>
        l.inHead && l.href !== null && l.rel.includes('stylesheet') && !l.rel.includes('alternate') && blockingMedia(l.media),
    );
    const rows: string[][] = [
      ...scripts.map((s) => ['script', clip(s.url ?? s.src ?? '', 120)]),
      ...styles.map((l) => ['stylesheet', clip(l.url ?? l.href ?? '', 120)]),
    ];
    const details = rows.length ? { details: tableDetails(['type', 'url'], rows) } : {};
    const summary = `${scripts.length} synchronous script${scripts.length === 1 ? '' : 's'} (limit ${maxScripts}) and ${styles.length} stylesheet${styles.length === 1 ? '' : 's'} (limit ${maxStyles}) block rendering in <head>`;
    const value = scripts.length + styles.length;
    if (scripts.length > maxScripts || styles.length > maxStyles) {
      return { passed: false, message: `${summary}.`, value, ...details };
    }
    return {
      passed: true,
      message: value === 0 ? 'No external script or stylesheet in <head> blocks rendering.' : `${summary}: within limits.`,
      value,
      ...details,
    };
  },
};

export default check;
