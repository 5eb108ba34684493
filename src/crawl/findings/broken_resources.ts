import { answerOf, isBroken, sheetLoads } from './context.js';
import type { FindingPage, FindingRule } from './types.js';

/**
 * high: a resource that does not load is broken on every visit to the page (an image missing, a
 * page unstyled, a script that never runs), like a broken link (docs/sites.md).
 */
const rule: FindingRule = {
  id: 'broken_resources',
  priority: 'high',
  title: 'Images, stylesheets, scripts, frames, fonts and media that answer 4xx/5xx or cannot be fetched',
  find(ctx) {
    const out: FindingPage[] = [];
    const loads = sheetLoads(ctx);
    for (const p of ctx.done) {
      const listed = new Set<string>();
      for (const r of p.facts.resources ?? []) {
        const page = ctx.byUrl.get(r.url);
        const c = ctx.graph?.checks?.get(r.url);
        const why =
          page !== undefined
            ? isBroken(page)
              ? String(page.statusCode ?? page.error ?? 'failed')
              : null
            : c?.verdict === 'broken'
              ? answerOf(c)
              : null;
        if (why === null) continue;
        listed.add(r.url);
        out.push({ url: p.url, detail: `${r.url} (${r.kind}: ${why})` });
      }
      // what its stylesheets name (@font-face fonts, @imports and their fonts): broken on every
      // page that loads the stylesheet
      for (const r of p.facts.resources ?? []) {
        if (r.kind !== 'stylesheet') continue;
        for (const f of loads(r.url)) {
          if (f.check.verdict !== 'broken' || listed.has(f.url)) continue;
          listed.add(f.url);
          out.push({ url: p.url, detail: `${f.url} (${f.kind}: ${answerOf(f.check)}; ${f.how})` });
        }
      }
      // a rendered page: what the browser saw fail (render.failed_requests), each once
      for (const f of p.facts.failedRequests ?? []) {
        if (listed.has(f.url)) continue;
        listed.add(f.url);
        out.push({ url: p.url, detail: `${f.url} (in the browser: ${f.status ?? f.reason})` });
      }
    }
    return out;
  },
};

export default rule;
