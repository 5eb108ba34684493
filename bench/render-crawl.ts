// Benchmark (issue 24 §4): a rendered crawl beside Unlighthouse, the same site in the same run —
// wall time and peak memory (RSS and Pss summed over each tool's process tree: node and every
// Chromium process) of a whole-site crawl in which every page is rendered in Chromium:
//
//   - Pagegrade: `pagegrade crawl URL --render --max-pages N` (dist/, as users run the CLI),
//     every check run on the rendered DOM;
//   - Unlighthouse (not a dependency: installed apart, found by --unlighthouse or
//     PAGEGRADE_UNLIGHTHOUSE, default /work/ulh/node_modules/.bin/unlighthouse-ci; missing → only
//     Pagegrade is measured): `unlighthouse-ci --site URL` with the same Chromium, a Lighthouse run
//     of every page (its defaults: the four categories), every route scanned (dynamic sampling
//     off, so that both tools audit the same N pages).
//
// The site: `/` and /p/0 … /p/N-2 (the ~14 kB article of bench/sites.ts, each linking to 20
// others), robots.txt, a sitemap, a favicon, served by this process on 127.0.0.1.
//
// Nothing leaves the machine: Unlighthouse's Chromium is not ours to guard, so the whole bench
// runs in a network namespace of its own that has only a loopback interface. Started outside
// one, this script makes the namespace (`ip netns add`, root needed), runs itself inside it
// (`--inside`) and deletes it at the end; inside, it refuses to run if any interface but
// loopback exists. Without the right to make a namespace it says so and measures nothing.
// Rounds interleave the tools (the order turning), so that a change of load hits both.
//
//   npx tsx bench/render-crawl.ts [--pages 20] [--rounds 2] [--unlighthouse PATH]
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { distIsCurrent } from '../scripts/dist-state.cjs';
import { descendants } from '../src/render/browser.js';
import { HEADLESS_ARGS } from '../src/render/chromium.js';
import { gardenPage, startBenchSite } from './lib/bench-site.js';
import { median } from './lib/stats.js';
import { treeMemKb, type TreeMem } from './lib/tree-mem.js';

const args = process.argv.slice(2);
const { values: opts } = parseArgs({
  args,
  options: {
    pages: { type: 'string', default: '20' },
    rounds: { type: 'string', default: '2' },
    unlighthouse: {
      type: 'string',
      default: process.env.PAGEGRADE_UNLIGHTHOUSE ?? '/work/ulh/node_modules/.bin/unlighthouse-ci',
    },
    inside: { type: 'boolean', default: false },
  },
});
const PAGES = Number(opts.pages);
const ROUNDS = Number(opts.rounds);
const UNLIGHTHOUSE = opts.unlighthouse;
const CHROMIUM = process.env.PAGEGRADE_CHROMIUM_PATH ?? '/usr/bin/chromium';
const root = fileURLToPath(new URL('..', import.meta.url));

/** Outside: makes the namespace, runs this script in it, removes it. */
function outside(): void {
  const ns = `pgb-render-${process.pid}`;
  try {
    execFileSync('ip', ['netns', 'add', ns], { stdio: 'pipe' });
  } catch (err) {
    const why = err instanceof Error && 'stderr' in err ? String(err.stderr).trim() : String(err);
    console.log(
      `Cannot make a network namespace (${why}): this bench runs only in one, so that no browser ` +
        'reaches past loopback. Nothing measured.',
    );
    return;
  }
  try {
    execFileSync('ip', ['-n', ns, 'link', 'set', 'lo', 'up']);
    execFileSync(
      'ip',
      [
        'netns',
        'exec',
        ns,
        join(root, 'node_modules/.bin/tsx'),
        fileURLToPath(import.meta.url),
        '--inside',
        ...args,
      ],
      { stdio: 'inherit' },
    );
  } finally {
    execFileSync('ip', ['netns', 'del', ns]);
  }
}

interface Run {
  tool: string;
  round: number;
  ms: number;
  pages: number;
  peakRss: number;
  peakPss: number;
  kinds: TreeMem['kinds'];
}

/** Runs `cmd` to its end, sampling its tree's memory every 50 ms. */
async function measure(
  tool: string,
  round: number,
  cmd: string,
  argv: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
  pagesOf: (stdout: string) => number,
): Promise<Run> {
  const started = performance.now();
  const child = spawn(cmd, argv, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const run: Run = { tool, round, ms: 0, pages: 0, peakRss: 0, peakPss: 0, kinds: new Map() };
  const sampler = setInterval(() => {
    const m = treeMemKb([child.pid!], descendants);
    run.peakRss = Math.max(run.peakRss, m.rss);
    if (m.pss > run.peakPss) {
      run.peakPss = m.pss;
      run.kinds = m.kinds;
    }
  }, 50);
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  clearInterval(sampler);
  run.ms = performance.now() - started;
  if (code !== 0 && code !== 1) {
    throw new Error(`${tool} exited with ${code}:\n${err.slice(-3000)}\n${out.slice(-2000)}`);
  }
  run.pages = pagesOf(out);
  return run;
}

async function inside(): Promise<void> {
  const others = Object.entries(networkInterfaces()).flatMap(([name, list]) =>
    (list ?? []).filter((a) => !a.internal).map((a) => `${name} ${a.address}`),
  );
  if (others.length > 0) throw new Error(`not only loopback here: ${others.join(', ')}`);
  if (!distIsCurrent()) throw new Error('dist/ is older than src/: npm run build first');
  const haveUnlighthouse = existsSync(UNLIGHTHOUSE);
  if (!haveUnlighthouse)
    console.log(
      `Unlighthouse not found at ${UNLIGHTHOUSE}: measuring Pagegrade only. Install it outside the repo ` +
        '(mkdir -p /work/ulh && cd /work/ulh && npm init -y && PUPPETEER_SKIP_DOWNLOAD=1 npm i @unlighthouse/cli@0.17.10) ' +
        'and pass --unlighthouse.',
    );
  const paths = ['/', ...Array.from({ length: PAGES - 1 }, (_, i) => `/p/${i}`)];
  const site = await startBenchSite({
    page: (path) => {
      if (path === '/') return gardenPage(PAGES - 1, PAGES - 1);
      const m = /^\/p\/(\d+)$/.exec(path);
      return m && Number(m[1]) < PAGES - 1 ? gardenPage(Number(m[1]), PAGES - 1) : null;
    },
    sitemapPaths: () => paths,
  });
  const url = `${site.origin}/`;
  const work = mkdtempSync(join(tmpdir(), 'pagegrade-render-crawl-'));
  writeFileSync(
    join(work, 'unlighthouse.config.mjs'),
    `export default ${JSON.stringify(
      {
        cache: false,
        outputPath: join(work, '.unlighthouse'),
        chrome: { useSystem: true },
        puppeteerOptions: { executablePath: CHROMIUM, args: HEADLESS_ARGS.filter((a) => a !== '--headless') },
        scanner: { maxRoutes: PAGES, dynamicSampling: false },
      },
      null,
      2,
    )};\n`,
  );
  console.log(
    `# a rendered crawl of ${PAGES} pages, ${ROUNDS} rounds; ${cpus().length} cores, load ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} (${new Date().toISOString()})`,
  );
  const tools = ['pagegrade', ...(haveUnlighthouse ? ['unlighthouse'] : [])];
  const runs: Run[] = [];
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      const order = round % 2 === 1 ? tools : [...tools].reverse();
      for (const tool of order) {
        const run =
          tool === 'pagegrade'
            ? await measure(
                'Pagegrade',
                round,
                process.execPath,
                [
                  join(root, 'bin/pagegrade.js'),
                  'crawl',
                  url,
                  '--render',
                  '--max-pages',
                  String(PAGES),
                  '--json',
                ],
                {
                  cwd: work,
                  env: {
                    ...process.env,
                    PAGEGRADE_ALLOW_PRIVATE_HOSTS: '1',
                    PAGEGRADE_CHROMIUM_PATH: CHROMIUM,
                  },
                },
                (out) => (JSON.parse(out) as { pages: unknown[] }).pages.length,
              )
            : await measure(
                'Unlighthouse',
                round,
                UNLIGHTHOUSE,
                ['--site', url, '--config-file', join(work, 'unlighthouse.config.mjs')],
                { cwd: work, env: process.env },
                (out) => Number(/scanning \S+: (\d+) routes/.exec(out)?.[1] ?? 0),
              );
        runs.push(run);
        console.log(
          `round ${round}: ${run.tool} ${run.pages} pages in ${(run.ms / 1000).toFixed(1)} s, peak Pss ${(run.peakPss / 1024).toFixed(0)} MB, RSS ${(run.peakRss / 1024).toFixed(0)} MB`,
        );
      }
    }
  } finally {
    await site.close();
    rmSync(work, { recursive: true, force: true });
  }
  report(runs);
}

function report(runs: Run[]): void {
  const by = (tool: string) => runs.filter((r) => r.tool === tool);
  const mb = (kb: number) => (kb / 1024).toFixed(0);
  console.log(
    '\n| tool | pages | time (median; range) | peak Pss, MB (median; range) | peak RSS, MB (median) |',
  );
  console.log('|---|---:|---:|---:|---:|');
  for (const tool of ['Pagegrade', 'Unlighthouse']) {
    const rs = by(tool);
    if (rs.length === 0) continue;
    const t = rs.map((r) => r.ms / 1000);
    const p = rs.map((r) => r.peakPss);
    console.log(
      `| ${tool} | ${rs.map((r) => r.pages).join(', ')} | ${median(t).toFixed(1)} s (${Math.min(...t).toFixed(1)}–${Math.max(...t).toFixed(1)}) | ${mb(median(p))} (${mb(Math.min(...p))}–${mb(Math.max(...p))}) | ${mb(median(rs.map((r) => r.peakRss)))} |`,
    );
  }
  for (const tool of ['Pagegrade', 'Unlighthouse']) {
    const rs = by(tool);
    if (rs.length === 0) continue;
    const peak = rs.reduce((a, b) => (b.peakPss > a.peakPss ? b : a));
    const kinds = [...peak.kinds.entries()]
      .sort((a, b) => b[1].kb - a[1].kb)
      .map(([k, v]) => `${k} ×${v.n} ${mb(v.kb)} MB`)
      .join(', ');
    console.log(`\n${tool} at its highest Pss (round ${peak.round}): ${kinds}`);
  }
  const pg = by('Pagegrade');
  const ul = by('Unlighthouse');
  if (pg.length && ul.length) {
    const rounds = [...new Set(runs.map((r) => r.round))];
    const ratio = (f: (r: Run) => number) =>
      rounds
        .map((round) => {
          const a = pg.find((r) => r.round === round);
          const b = ul.find((r) => r.round === round);
          return a && b ? f(a) / f(b) : null;
        })
        .filter((x): x is number => x !== null);
    const show = (xs: number[]) =>
      `${median(xs).toFixed(3)}× (${Math.min(...xs).toFixed(3)}–${Math.max(...xs).toFixed(3)})`;
    console.log(
      `\nPagegrade ÷ Unlighthouse, per round: time ${show(ratio((r) => r.ms))}, peak Pss ${show(ratio((r) => r.peakPss))}`,
    );
  }
}

if (opts.inside) await inside();
else outside();
