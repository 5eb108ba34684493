// The project page's charts (docs/sites.md, "The project page"): the site score over time,
// the pages by band over time and the findings over time, from the project's finished crawls'
// stored summaries (services.projects.get → trend). Server-rendered SVG in the style of the
// report history chart (src/views/history.ts): classes only, no script, no inline style, and
// every value written as text beside its shape so the charts read in grey print.
// (Like the other views, the templates are kept as written: whitespace in them is content.)
import { RESULT_LABELS, SCORING } from '../analyzer/vocabulary.js';
import type { ProjectTrendPoint } from '../services/projects/types.js';
import { html, type SafeHtml } from './html.js';
import { formatDate } from './report.js';

const W = 640;
const H = 210;
const PAD = { left: 34, right: 58, top: 18, bottom: 30 };
/** above this many crawls, only the newest one's value is written beside its point */
const LABEL_ALL_UP_TO = 14;
/** the findings table shows this many of the newest crawls (the API's trend has them all) */
const FINDINGS_COLUMNS = 6;

const f1 = (v: number) => v.toFixed(1);
const day = (iso: string | null) => (iso === null ? '' : formatDate(iso).slice(0, 10));
const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;
const crawlName = (p: ProjectTrendPoint) =>
  `Batch #${p.batchId}${p.finishedAt ? ` · ${formatDate(p.finishedAt)}` : ''}`;

/** The x of the i-th of n crawls (one alone in the middle). */
const xOf = (i: number, n: number) => {
  const pw = W - PAD.left - PAD.right;
  return n === 1 ? PAD.left + pw / 2 : PAD.left + (pw * i) / (n - 1);
};

function dates(trend: readonly ProjectTrendPoint[]): SafeHtml {
  const first = trend[0];
  const last = trend.at(-1);
  return html`${first ? html`<text class="chart__axis" x="${PAD.left}" y="${H - 8}" text-anchor="start">${day(first.finishedAt)}</text>` : ''}${last && trend.length > 1 ? html`<text class="chart__axis" x="${W - PAD.right}" y="${H - 8}" text-anchor="end">${day(last.finishedAt)}</text>` : ''}`;
}

/** The site score of each finished crawl, oldest to newest, over the shaded bands. */
export function siteScoreChart(trend: readonly ProjectTrendPoint[]): SafeHtml {
  const n = trend.length;
  const pw = W - PAD.left - PAD.right;
  const ph = H - PAD.top - PAD.bottom;
  const y = (score: number) => PAD.top + ph * (1 - score / 100);
  const { good, decent } = SCORING.bands;
  const bands = [
    { band: 'good', top: 100, bottom: good },
    { band: 'decent', top: good, bottom: decent },
    { band: 'bad', top: decent, bottom: 0 },
  ] as const;
  const scored = trend.flatMap((p, i) =>
    p.siteScore !== null && p.band !== null ? [{ p, i, s: p.siteScore, band: p.band }] : [],
  );
  const first = scored[0];
  const newest = scored.at(-1);
  const desc =
    first && newest
      ? `Site score of ${plural(scored.length, 'finished crawl')}, from ${first.s} on ${day(first.p.finishedAt)} to ${newest.s} on ${day(newest.p.finishedAt)}.`
      : 'No audited page yet.';
  const points = scored.map(({ p, i, s, band }) => {
    const labelled = n <= LABEL_ALL_UP_TO || p === newest?.p;
    return html`<g class="chart__run"><title>${crawlName(p)} · ${s} (${RESULT_LABELS[band]})</title><circle class="chart__point band-${band}" cx="${f1(xOf(i, n))}" cy="${f1(y(s))}" r="4.5"/>${labelled ? html`<text class="chart__label" x="${f1(xOf(i, n))}" y="${f1(y(s) - 9)}" text-anchor="middle">${s}</text>` : ''}</g>`;
  });
  const line = scored.map(({ i, s }) => `${f1(xOf(i, n))},${f1(y(s))}`).join(' ');
  return html`<svg class="chart chart--site-score" viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="site-score-title site-score-desc">
<title id="site-score-title">Site score over time</title>
<desc id="site-score-desc">${desc}</desc>
${bands.map((b) => html`<rect class="chart__band chart__band--${b.band}" x="${PAD.left}" y="${f1(y(b.top))}" width="${pw}" height="${f1(y(b.bottom) - y(b.top))}"/><text class="chart__band-label" x="${W - PAD.right + 10}" y="${f1((y(b.top) + y(b.bottom)) / 2 + 4)}">${RESULT_LABELS[b.band]}</text>`)}
${[0, decent, good, 100].map((v) => html`<line class="chart__grid" x1="${PAD.left}" x2="${W - PAD.right}" y1="${f1(y(v))}" y2="${f1(y(v))}"/><text class="chart__axis" x="${PAD.left - 6}" y="${f1(y(v) + 4)}" text-anchor="end">${v}</text>`)}
${scored.length > 1 ? html`<polyline class="chart__line" points="${line}"/>` : ''}
${points}
${dates(trend)}
</svg>`;
}

const BAND_ORDER = ['bad', 'decent', 'good'] as const;

/** The audited pages of each crawl by band: one stacked bar a crawl, each part's count on it. */
export function bandsChart(trend: readonly ProjectTrendPoint[]): SafeHtml {
  const n = trend.length;
  const pw = W - PAD.left - PAD.right;
  const ph = H - PAD.top - PAD.bottom;
  const max = Math.max(1, ...trend.map((p) => p.bands.good + p.bands.decent + p.bands.bad));
  const h = (count: number) => (ph * count) / max;
  const barW = Math.min(48, (pw / Math.max(1, n)) * 0.6);
  const words = (p: ProjectTrendPoint) =>
    BAND_ORDER.map((b) => `${p.bands[b]} ${RESULT_LABELS[b].toLowerCase()}`).join(', ');
  const bars = trend.map((p, i) => {
    // bars in equal slots, so that the first and last stay inside the plot
    const cx = PAD.left + (pw * (i + 0.5)) / Math.max(1, n);
    let top = PAD.top + ph;
    const parts = BAND_ORDER.map((band) => {
      const count = p.bands[band];
      if (count === 0) return '';
      top -= h(count);
      const label =
        h(count) >= 13 && n <= LABEL_ALL_UP_TO
          ? html`<text class="chart__stack-label" x="${f1(cx)}" y="${f1(top + h(count) / 2 + 4)}" text-anchor="middle">${count}</text>`
          : '';
      return html`<rect class="chart__stack band-${band}" x="${f1(cx - barW / 2)}" y="${f1(top)}" width="${f1(barW)}" height="${f1(h(count))}"/>${label}`;
    });
    return html`<g class="chart__run"><title>${crawlName(p)} · ${words(p)}</title>${parts}</g>`;
  });
  const newest = trend.at(-1);
  const desc = newest
    ? `Audited pages by result in ${plural(n, 'finished crawl')}; the newest: ${words(newest)}.`
    : 'No finished crawl yet.';
  return html`<svg class="chart chart--bands" viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="bands-title bands-desc">
<title id="bands-title">Pages by result over time</title>
<desc id="bands-desc">${desc}</desc>
<line class="chart__grid" x1="${PAD.left}" x2="${W - PAD.right}" y1="${PAD.top}" y2="${PAD.top}"/>
<line class="chart__grid" x1="${PAD.left}" x2="${W - PAD.right}" y1="${PAD.top + ph}" y2="${PAD.top + ph}"/>
<text class="chart__axis" x="${PAD.left - 6}" y="${PAD.top + 4}" text-anchor="end">${max}</text>
<text class="chart__axis" x="${PAD.left - 6}" y="${PAD.top + ph + 4}" text-anchor="end">0</text>
${bars}
${[...BAND_ORDER].reverse().map((b, i) => html`<rect class="chart__stack band-${b}" x="${W - PAD.right + 6}" y="${PAD.top + 40 * i + 20}" width="9" height="9"/><text class="chart__band-label" x="${W - PAD.right + 18}" y="${PAD.top + 40 * i + 29}">${RESULT_LABELS[b]}</text>`)}
${dates(trend)}
</svg>`;
}

/**
 * The site-level findings over the newest crawls: one row a finding (every finding any of them
 * had), one column a crawl, the count in each cell — a table rather than a chart: a finding's
 * count is a handful of pages, and a person compares them row by row.
 */
export function findingsTable(trend: readonly ProjectTrendPoint[], linkBatches = true): SafeHtml {
  const crawls = trend.slice(-FINDINGS_COLUMNS);
  const titles = new Map<string, string>();
  // the findings found in one of them at least (the stored summary lists the clean ones too)
  for (const c of crawls) for (const f of c.findings) if (f.count > 0) titles.set(f.id, f.title);
  if (titles.size === 0)
    return html`<p class="muted" id="findings-none">No site-level finding in ${crawls.length === 1 ? 'the last crawl' : `the last ${crawls.length} crawls`}.</p>`;
  const count = (c: ProjectTrendPoint, id: string) => c.findings.find((f) => f.id === id)?.count ?? 0;
  return html`<div class="table-wrap"><table class="project-findings">
<caption class="visually-hidden">Site-level findings by crawl, oldest to newest</caption>
<thead><tr><th scope="col">Finding</th>${crawls.map((c) => html`<th scope="col" class="num">${linkBatches ? html`<a href="/dashboard/batches/${c.batchId}">#${c.batchId}</a>` : `#${c.batchId}`}<br><span class="muted">${day(c.finishedAt)}</span></th>`)}</tr></thead>
<tbody>${[...titles].map(([id, title]) => html`<tr><th scope="row">${title} <code class="muted">${id}</code></th>${crawls.map((c) => html`<td class="num">${count(c, id)}</td>`)}</tr>`)}</tbody>
</table></div>`;
}
