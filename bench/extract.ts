// Custom extraction's cost a page (docs/sites.md, "Custom extraction"): css, xpath and regex
// extractors over the real saved pages of shared/corpus/pages (read from ../shared, never
// copied), each kind alone, mean and worst ms a page. `npx tsx bench/extract.ts`
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { extractValues, type Extractor } from '../src/crawl/extract.js';

const dir = new URL('../../shared/corpus/pages/', import.meta.url).pathname;
const pages = readdirSync(dir)
  .filter((f) => f.endsWith('.html'))
  .map((f) => ({ f, html: readFileSync(join(dir, f), 'utf8') }));
const kinds: Record<string, Extractor[]> = {
  css: [{ name: 'h1', css: 'h1' }, { name: 'links', css: 'a[href]', attribute: 'href', all: true }],
  xpath: [{ name: 'h1', xpath: '//h1' }, { name: 'canonical', xpath: '//link[@rel="canonical"]/@href' }],
  regex: [{ name: 'ga', regex: 'UA-(\\d+)' }, { name: 'pathological', regex: '(a+)+$' }],
};
for (const p of pages.slice(0, 3)) extractValues(p.html, kinds.css!); // warm up
for (const [kind, extractors] of Object.entries(kinds)) {
  let total = 0;
  let worst = { ms: 0, page: '' };
  for (const p of pages) {
    const t = performance.now();
    extractValues(p.html, extractors);
    const ms = performance.now() - t;
    total += ms;
    if (ms > worst.ms) worst = { ms, page: `${p.f} (${p.html.length} chars)` };
  }
  console.log(
    `${kind}: ${pages.length} pages, mean ${(total / pages.length).toFixed(1)} ms, worst ${worst.ms.toFixed(1)} ms (${worst.page})`,
  );
}
