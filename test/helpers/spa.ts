// The single-page app of the rendered-audit tests (test/render/): a shell whose title, meta
// description, h1, links and content exist only after /app.js runs. Raw audits fail what the
// script sets, rendered audits pass it. Its five links (/spades … /rakes) exist only after
// JavaScript, which is what a rendered crawl follows (test/render/batches.test.ts).
import { html, type FixtureServer } from './fixture-server.js';

/** The SPA's shell: everything a crawler reads is missing until app.js runs. */
export const SPA_SHELL = `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="/favicon.ico">
<script src="/app.js" defer></script>
</head><body><div id="app"></div></body></html>`;

const WORDS =
  'Pagegrade renders single page applications in a headless browser and audits the document that visitors and search engines see after scripts have run. ';

/** The paths app.js links to. */
export const SPA_LINKS = ['/spades', '/forks', '/shears', '/hoes', '/rakes'] as const;

export const SPA_JS = `
document.title = 'Rendered garden tools for careful gardeners';
const meta = document.createElement('meta');
meta.name = 'description';
meta.content = 'Garden tools chosen, tested and explained: spades, forks, shears and hoes for every kind of garden, with honest advice on how to use and keep them.';
document.head.appendChild(meta);
const app = document.getElementById('app');
app.innerHTML = '<header><nav>' +
  ${JSON.stringify(SPA_LINKS.map((p) => p.slice(1)))}.map((t) => '<a href="/' + t + '">Our ' + t + '</a>').join(' ') +
  '</nav></header><main><h1>Garden tools for careful gardeners</h1>' +
  ${JSON.stringify(`<p>${WORDS.repeat(30)}</p>`)} + '</main>';
`;

/** `/spa` (the shell) and `/app.js` on `f`. */
export function spaRoutes(f: FixtureServer): void {
  f.route('/spa', html(SPA_SHELL));
  f.route('/app.js', { headers: { 'content-type': 'text/javascript' }, body: SPA_JS });
}
