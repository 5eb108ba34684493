import { forEachTarget, sheetLoads } from './context.js';
import type { CheckedUrl, FindingPage, FindingRule } from './types.js';

/** a font found in a stylesheet whose check had not run when the batch ended (cancelled meanwhile) */
const STOPPED = 'Not requested: the checks stopped before it.';

const notAsked = (c: CheckedUrl | undefined): c is CheckedUrl =>
  c?.verdict === 'unchecked' || c?.verdict === 'pending';

/**
 * informational: links and resources the batch did not request — robots.txt disallows them
 * (another host's for its URLs), a per-batch cap (max_site_checks, max_external_checks) was
 * reached, the batch's time budget ran out, or the address guard refuses the host. Not broken:
 * not known. A disallowed URL that is a page of the batch is `blocked_linked`'s. The fonts a
 * page's stylesheets name are the page's too.
 */
const rule: FindingRule = {
  id: 'unchecked_links',
  priority: 'low',
  title:
    'Links and resources not checked (robots.txt, the per-batch caps, the time budget, the address guard)',
  find(ctx) {
    const checks = ctx.graph?.checks;
    if (!checks) return [];
    // only a URL whose check was not asked is listed (a stylesheet's fonts are checks too): none,
    // nothing to walk — most batches, and a 100,000-page batch's end spared a set a page
    let anyNotAsked = false;
    for (const c of checks.values()) if (notAsked(c)) anyNotAsked = true;
    if (!anyNotAsked) return [];
    const out: FindingPage[] = [];
    const externalBy = new Map<string, string[]>();
    for (const { source, target } of ctx.graph?.external ?? []) {
      const list = externalBy.get(source);
      if (list) list.push(target);
      else externalBy.set(source, [target]);
    }
    const loads = sheetLoads(ctx);
    for (const p of ctx.done) {
      const seen = new Set<string>();
      const resources = p.facts.resources ?? [];
      const visit = (target: string) => {
        if (seen.has(target)) return;
        seen.add(target);
        const c = checks.get(target);
        if (notAsked(c)) out.push({ url: p.url, detail: `${target} (${c.error ?? STOPPED})` });
      };
      forEachTarget(p, visit);
      for (const r of resources) visit(r.url);
      for (const target of externalBy.get(p.url) ?? []) visit(target);
      for (const r of resources) {
        if (r.kind !== 'stylesheet') continue;
        for (const f of loads(r.url)) {
          if (seen.has(f.url)) continue;
          seen.add(f.url);
          if (notAsked(f.check))
            out.push({
              url: p.url,
              detail: `${f.url} (${f.check.error ?? STOPPED} ${f.how[0]!.toUpperCase()}${f.how.slice(1)}.)`,
            });
        }
      }
    }
    return out;
  },
};

export default rule;
