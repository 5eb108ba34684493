// Branded PDF reports (docs/rendering.md, "Branded PDFs"): what a PDF costs next to the report
// page it is made from, in the same run.
//   npx tsx bench/pdf.ts [--pages N] [--iterations N]
// The first N saved pages of ../shared/corpus/pages (default 6) are audited from their saved
// bytes (no network) and stored as reports of a user with a branding (name, PNG logo, accent,
// contact, "prepared for") in a fresh SQLite file under bench/.data/. Then, through the real app
// (inject), per page and iteration: GET /reports/{id} (the HTML page: the baseline) and
// GET /reports/{id}.pdf (composed, printed by the pooled Chromium). The first PDF (Chromium
// launched) is reported apart; the others are warm. Peak memory is the whole process tree
// (node + Chromium, proportional set size), sampled every 50 ms from /proc.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { analyzeSnapshot } from '../src/analyzer/index.js';
import { snapshotFrom } from '../test/helpers/checks.js';
import { buildApp } from '../src/app.js';
import { configFromEnv } from '../src/config.js';
import { descendants, Renderer } from '../src/render/browser.js';
import { createServices } from '../src/services/index.js';
import { createDb, migrate } from '../src/store/database.js';
import { median } from './lib/stats.js';
import { embeddedQueue } from '../src/jobs/index.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const corpus = join(root, '..', 'shared', 'corpus', 'pages');
const args = process.argv.slice(2);
const arg = (name: string, fallback: number) => {
  const i = args.indexOf(name);
  return i === -1 ? fallback : Number(args[i + 1]) || fallback;
};
const PAGES = arg('--pages', 6);
const ITERATIONS = arg('--iterations', 5);
const CHROMIUM = process.env.PAGEGRADE_CHROMIUM_PATH ?? '/usr/bin/chromium';
const PNG_1X1 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

if (!existsSync(CHROMIUM)) {
  console.error(`Chromium not found at ${CHROMIUM} (apt-get install -y chromium)`);
  process.exit(2);
}

/**
 * Memory of this process and everything under it (kB), from /proc: the proportional set size
 * (Pss: a page shared by Chromium's processes is counted once in all, not once per process).
 */
function treeRssKb(): number {
  let kb = 0;
  for (const pid of [process.pid, ...descendants(process.pid)]) {
    try {
      const m = /^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
      kb += Number(m?.[1] ?? 0);
    } catch {
      // gone meanwhile
    }
  }
  return kb;
}

const dataDir = join(root, 'bench', '.data');
mkdirSync(dataDir, { recursive: true });
const dbFile = join(dataDir, 'pdf-bench.db');
rmSync(dbFile, { force: true });
const config = configFromEnv({ LOG_LEVEL: 'silent' });
const handle = createDb(`sqlite:${dbFile}`);
await migrate(handle.db);

const names = readdirSync(corpus)
  .filter((n) => n.endsWith('.html'))
  .sort()
  .slice(0, PAGES);
const bodies = new Map(names.map((n) => [`https://www.example.com/${n.replace(/\.html$/, '')}/`, n]));
const renderer = new Renderer({
  executablePath: CHROMIUM,
  concurrency: config.renderConcurrency,
  timeoutMs: 60_000,
  maxRequests: 100,
  maxBytes: 10_000_000,
  network: { allowPrivateHosts: false, allowHosts: [] },
  userAgent: 'Pagegrade-bench',
});
const services = createServices({ queue: embeddedQueue(handle.db),
  db: handle.db,
  config,
  renderer,
  analyze: async (url) => {
    const name = bodies.get(url)!;
    const html = readFileSync(join(corpus, name), 'utf8');
    return analyzeSnapshot(
      snapshotFrom(html, { url, robotsTxt: 'User-agent: *\nAllow: /\n', notFoundStatus: 404, faviconStatus: 200 }),
    );
  },
});
const app = await buildApp(config, { services, healthCheck: async () => {} });
const { organization: owner } = await services.users.create('bench');
await services.branding.put(owner.id, {
  name: 'Acme Web Agency',
  accentColor: '#0f766e',
  contact: 'audits@acme.example',
  preparedFor: 'Example Ltd',
  logo: `data:image/png;base64,${PNG_1X1}`,
});
const reports = [];
for (const url of bodies.keys()) reports.push(await services.reports.create(owner.id, { url, privacy: 0 }));

let peakKb = treeRssKb();
const sampler = setInterval(() => (peakKb = Math.max(peakKb, treeRssKb())), 50);
const baseKb = peakKb;

async function timed(url: string): Promise<{ ms: number; body: Buffer }> {
  const t0 = performance.now();
  const res = await app.inject({ method: 'GET', url });
  const ms = performance.now() - t0;
  if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
  return { ms, body: res.rawPayload };
}

const cold = await timed(`/reports/${reports[0]!.id}.pdf`);
const rows: string[] = [];
const allHtml: number[] = [];
const allPdf: number[] = [];
for (const [i, r] of reports.entries()) {
  const htmlMs: number[] = [];
  const pdfMs: number[] = [];
  let pdf: Buffer = Buffer.alloc(0);
  for (let k = 0; k < ITERATIONS; k++) {
    htmlMs.push((await timed(`/reports/${r.id}`)).ms);
    const p = await timed(`/reports/${r.id}.pdf`);
    pdfMs.push(p.ms);
    pdf = p.body;
  }
  allHtml.push(...htmlMs);
  allPdf.push(...pdfMs);
  const file = join(dataDir, `pdf-bench-${i}.pdf`);
  writeFileSync(file, pdf);
  let pages = '–';
  try {
    pages = /^Pages:\s+(\d+)/m.exec(execFileSync('pdfinfo', [file], { encoding: 'utf8' }))?.[1] ?? '–';
  } catch {
    // no poppler-utils: pages not counted
  }
  const h = median(htmlMs);
  const p = median(pdfMs);
  rows.push(
    `| ${names[i]} | ${h.toFixed(1)} | ${p.toFixed(0)} | ${Math.max(...pdfMs).toFixed(0)} | ${(p / h).toFixed(0)}× | ${pages} | ${Math.round(pdf.length / 1024)} |`,
  );
}
clearInterval(sampler);

console.log(
  `Branded PDFs: ${reports.length} corpus reports × ${ITERATIONS} iterations, Chromium concurrency ${config.renderConcurrency}, one at a time\n`,
);
console.log('| page | report page ms (median) | PDF ms (median) | PDF ms (max) | PDF / page | PDF pages | PDF KB |');
console.log('|---|---:|---:|---:|---:|---:|---:|');
for (const row of rows) console.log(row);
console.log(
  `| **all** | ${median(allHtml).toFixed(1)} | ${median(allPdf).toFixed(0)} | ${Math.max(...allPdf).toFixed(0)} | ${(median(allPdf) / median(allHtml)).toFixed(0)}× | | |`,
);
console.log(`\nfirst PDF (Chromium launched): ${cold.ms.toFixed(0)} ms`);
console.log(
  `peak memory of the process tree (node + Chromium, Pss): ${Math.round(peakKb / 1024)} MB (${Math.round(baseKb / 1024)} MB before the first PDF)`,
);

await renderer.close();
await app.close();
await handle.close();
