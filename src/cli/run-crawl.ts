// `pagegrade crawl`, once its arguments are checked (src/cli/crawl.ts loads this module when
// the command runs): a database in memory, the services and the embedded job engine in this
// process, one batch — exactly what the server would run —, its progress on stderr, and the
// summary, JSON or CSV at the end.
import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import type { Config } from '../config.js';
import { batchCsv, batchJson } from '../contract/batches/export.js';
import type { Extractor } from '../crawl/extract.js';
import type { Batch, BatchPageResult } from '../services/batches/types.js';
import { presentBatch, presentSummary } from '../contract/batches/present.js';
import { checkTarget } from '../analyzer/fetch/index.js';
import { CliError, EXIT } from './exit-codes.js';
import { crawlFailure, openLocalCrawl, type LocalCrawl } from './local-crawl.js';
import { table } from './table.js';
import { compareWithBaseline, diffText, readBaseline } from './baseline.js';
import type { CheckTable } from '../crawl/diff.js';
import { presentDiffDigest } from '../contract/batches/diff.js';

/** What fails the crawl's gate: a band (a page at or below it), site findings by id. */
export interface FailOn {
  band: 'decent' | 'bad' | null;
  findings: string[];
}

export interface RunCrawlOptions {
  mode: 'crawl' | 'sitemap';
  maxPages?: number;
  maxDepth?: number;
  /** every page rendered in Chromium (started here, closed at the end) */
  render: boolean;
  /** custom extraction (--extract), checked */
  extractors?: Extractor[];
  /** --check-external (docs/sites.md "Links and resources checked") */
  checkExternal?: boolean;
  maxExternalChecks?: number;
  /** --max-site-checks: the site's own URLs checked at most */
  maxSiteChecks?: number;
  /** the findings' thresholds (--thin-words, --near-duplicate-threshold, --deep-depth) */
  thinContentWords?: number;
  nearDuplicateThreshold?: number;
  deepPageDepth?: number;
  json: boolean;
  /** a file, "-" for stdout, or null */
  csv: string | null;
  failOn: FailOn;
  /** an earlier `pagegrade crawl --json` to compare with (docs/sites.md, "Comparing crawls"), or null */
  baseline: string | null;
  /** exit 1 when the crawl regressed against the baseline */
  failOnRegression: boolean;
  tableRows: number;
}

const TERMINAL = new Set(['done', 'cancelled', 'failed']);
/** how often the progress is looked at */
const POLL_MS = 150;

/** Control characters from a crawled page never reach the terminal. */
// eslint-disable-next-line no-control-regex
const clean = (s: string) => s.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ');

interface Progress {
  update(b: Batch): void;
  stop(): void;
}

/** A bar on a terminal (cli-progress, loaded only there), else a plain line whenever the counts change. */
async function progressOn(stream: NodeJS.WriteStream): Promise<Progress> {
  if (stream.isTTY === true) {
    // a CommonJS package: its exports are module.exports, the namespace's default (under Node
    // and in the bundled CLI alike; esbuild has no named exports for it)
    const { SingleBar, Presets } = (await import('cli-progress')).default;
    const bar = new SingleBar(
      {
        stream,
        format: ' {bar} {value}/{total} pages | {audited} audited, {failed} failed or skipped | {status}',
        hideCursor: true,
        clearOnComplete: false,
        etaBuffer: 20,
      },
      Presets.shades_classic,
    );
    let started = false;
    return {
      update(b) {
        const p = b.progress;
        const payload = { audited: p.audited, failed: p.failed + p.skipped, status: b.status };
        const value = p.audited + p.failed + p.skipped;
        if (!started) {
          bar.start(Math.max(1, p.discovered), value, payload);
          started = true;
        }
        bar.setTotal(Math.max(1, p.discovered));
        bar.update(value, payload);
      },
      stop: () => bar.stop(),
    };
  }
  let last = '';
  return {
    update(b) {
      const p = b.progress;
      const line = `${b.status}: ${p.audited} audited, ${p.failed + p.skipped} failed or skipped, ${p.remaining} remaining of ${p.discovered} found`;
      if (line !== last) stream.write(`${line}\n`);
      last = line;
    },
    stop() {},
  };
}

function pageRows(pages: BatchPageResult[], limit: number): string[][] {
  const rank = (p: BatchPageResult) =>
    p.state === 'failed' ? -1 : p.state === 'done' ? (p.facts?.score ?? 0) : 1000;
  const shown = pages
    .filter((p) => p.state === 'done' || p.state === 'failed')
    .sort((a, b) => rank(a) - rank(b) || a.url.localeCompare(b.url));
  const rows = [['SCORE', 'RESULT', 'FAILED', 'URL']];
  for (const p of shown.slice(0, limit)) {
    if (p.state === 'failed')
      rows.push(['-', 'FAILED', '-', `${clean(p.url)} (${clean(p.error ?? 'could not be audited')})`]);
    else
      rows.push([
        String(p.facts?.score ?? '-'),
        (p.facts?.result ?? '-').toUpperCase(),
        String(p.facts?.failed.length ?? '-'),
        clean(p.url),
      ]);
  }
  if (shown.length > limit)
    rows.push(['', '', '', `… and ${shown.length - limit} more (--csv FILE or --json for every page)`]);
  return rows;
}

export async function runCrawl(config: Config, url: string, o: RunCrawlOptions): Promise<number> {
  // --render: Chromium for this batch's pages (the pool of PAGEGRADE_RENDER_CONCURRENCY pages),
  // checked before anything is fetched; exit 2 with how to install it when it is missing
  const renderer = o.render ? (await import('../render/index.js')).rendererFromConfig(config) : null;
  const unavailable = renderer?.unavailable() ?? null;
  if (unavailable !== null) throw new CliError(`--render: ${unavailable}`);
  // the address guard refuses the URL (a loopback or private address without
  // PAGEGRADE_ALLOW_PRIVATE_HOSTS=1): a matter of configuration, exit 2 before anything runs
  await checkTarget(url, {
    allowPrivateHosts: config.allowPrivateHosts,
    timeoutMs: config.fetchTimeoutMs,
  }).catch((err: { code?: string; message?: string }) => {
    if (err.code === 'blocked_address') throw new CliError(`could not crawl ${url}: ${err.message}`);
    // DNS and the like: the crawl runs and fails, saying why (exit 1)
  });
  // the baseline is read before anything is fetched: a wrong file is a usage error (exit 2)
  const checks: CheckTable = new Map();
  const baseline = o.baseline === null ? null : await readBaseline(o.baseline, checks);
  let local: LocalCrawl | null = null;
  const progress = await progressOn(process.stderr);
  let interrupted = false;
  let onSignal: (() => void) | null = null;
  // the cancel, once asked: its end (the findings and summary) is written before they are read
  let cancelling: Promise<unknown> = Promise.resolve();
  try {
    local = await openLocalCrawl(config, renderer, 'pagegrade-crawl');
    const { services, userId } = local;
    let batch = await services.batches.create(userId, {
      url,
      mode: o.mode,
      ...(o.maxPages !== undefined ? { maxPages: o.maxPages } : {}),
      ...(o.maxDepth !== undefined ? { maxDepth: o.maxDepth } : {}),
      render: o.render,
      ...(o.extractors && o.extractors.length > 0 ? { extractors: o.extractors } : {}),
      checkExternal: o.checkExternal === true,
      ...(o.maxExternalChecks !== undefined ? { maxExternalChecks: o.maxExternalChecks } : {}),
      ...(o.maxSiteChecks !== undefined ? { maxSiteChecks: o.maxSiteChecks } : {}),
      ...(o.thinContentWords !== undefined ? { thinContentWords: o.thinContentWords } : {}),
      ...(o.nearDuplicateThreshold !== undefined ? { nearDuplicateThreshold: o.nearDuplicateThreshold } : {}),
      ...(o.deepPageDepth !== undefined ? { deepPageDepth: o.deepPageDepth } : {}),
    });
    const running = local.startWorkers();
    // Ctrl-C: the batch is cancelled (pages in flight finish) and what was audited is reported
    onSignal = () => {
      if (interrupted) process.exit(130);
      interrupted = true;
      process.stderr.write(
        '\nStopping: the pages in progress finish, then the summary (Ctrl-C again to quit).\n',
      );
      cancelling = services.batches.cancel(userId, batch.id).catch(() => {});
    };
    process.on('SIGINT', onSignal);

    for (;;) {
      batch = await services.batches.get(userId, batch.id);
      progress.update(batch);
      if (TERMINAL.has(batch.status)) break;
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
    progress.stop();
    await cancelling;
    batch = await services.batches.get(userId, batch.id);
    await running.stop();

    const { pages, findings } = await services.batches.results(userId, batch.id);
    if (o.mode === 'sitemap' && batch.progress.discovered === 0 && !interrupted)
      throw new CliError(
        `could not read a sitemap at ${url}: it could not be fetched, or lists no page of this site.`,
      );
    const failure = crawlFailure(batch, pages, o.mode === 'crawl');

    // compared with the baseline by the server's own function (a crawl that ended with nothing
    // audited is a failure below, not a diff)
    const diff =
      baseline === null || batch.status === 'failed'
        ? null
        : compareWithBaseline(
            baseline,
            {
              id: batch.id,
              finishedAt: batch.finishedAt,
              pages,
              findings,
              extractors: (batch.options.extractors ?? []).map((e) => e.name),
            },
            checks,
            config.regressionPageShare,
          );

    // the in-memory database goes away: no report ids, no links to a server
    const outPages = pages.map((p) => ({ ...p, reportId: null }));
    const names = (batch.options.extractors ?? []).map((e) => e.name);
    if (o.csv !== null) await writeCsv(batchCsv(outPages, names), o.csv);
    const summary = batch.summary;
    if (o.json) {
      const { links: _links, ...shown } = presentBatch(batch, config.publicUrl);
      const body = batchJson(shown, summary ? presentSummary(summary) : null, findings, outPages);
      const out = diff === null ? body : { ...body, diff: presentDiffDigest(diff) };
      process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
      if (diff !== null) process.stderr.write(diffText(diff, clean));
    } else if (o.csv !== '-') {
      process.stdout.write(summaryText(batch, outPages, findings, o.tableRows));
      if (diff !== null) process.stdout.write(`\n${diffText(diff, clean)}`);
    } else if (diff !== null) process.stderr.write(diffText(diff, clean));
    if (o.csv !== null && o.csv !== '-') process.stderr.write(`CSV written to ${o.csv}\n`);

    if (interrupted) {
      process.stderr.write('Stopped by Ctrl-C: the summary covers the pages audited until then: exit 130\n');
      return EXIT.interrupted;
    }
    if (failure !== null) {
      process.stderr.write(`error: could not crawl ${url}: ${failure}\n`);
      return EXIT.failedGate;
    }
    const gated = gate(o.failOn, pages, findings);
    if (o.failOnRegression && diff?.regressed) {
      process.stderr.write(`regressed against ${o.baseline}: exit 1\n`);
      return EXIT.failedGate;
    }
    return gated;
  } finally {
    progress.stop();
    if (onSignal) process.off('SIGINT', onSignal);
    await local?.close();
    await renderer?.close().catch(() => {});
  }
}

/** The --fail-on gate: exit 1 when a page is at or below the band or a named finding is found. */
function gate(failOn: FailOn, pages: BatchPageResult[], findings: { id: string; count: number }[]): number {
  const reasons: string[] = [];
  if (failOn.band !== null) {
    const failing = failOn.band === 'decent' ? ['decent', 'bad'] : ['bad'];
    const below = pages.filter((p) => p.state === 'done' && p.facts && failing.includes(p.facts.result));
    if (below.length > 0)
      reasons.push(
        `${below.length} page${below.length === 1 ? '' : 's'} ${failOn.band === 'decent' ? 'decent or bad' : 'bad'} (--fail-on ${failOn.band})`,
      );
  }
  for (const id of failOn.findings) {
    const f = findings.find((x) => x.id === id);
    if (f && f.count > 0)
      reasons.push(`${id} on ${f.count} page${f.count === 1 ? '' : 's'} (--fail-on ${id})`);
  }
  if (reasons.length === 0) return EXIT.ok;
  process.stderr.write(`${reasons.join('; ')}: exit 1\n`);
  return EXIT.failedGate;
}

async function writeCsv(csv: Readable, file: string): Promise<void> {
  if (file === '-') {
    await pipeline(csv, process.stdout, { end: false });
    return;
  }
  try {
    await pipeline(csv, createWriteStream(file));
  } catch (err) {
    throw new CliError(`--csv ${file}: ${(err as Error).message}`);
  }
}

function summaryText(
  batch: Batch,
  pages: BatchPageResult[],
  findings: { id: string; title: string; count: number }[],
  limit: number,
): string {
  const s = batch.summary;
  const p = batch.progress;
  const lines: string[] = [];
  lines.push(`Crawl of ${clean(batch.url)}: ${batch.status}`);
  if (batch.status === 'failed' && batch.error) lines.push(`Why: ${clean(batch.error)}`);
  lines.push(
    `Pages: ${p.discovered} found, ${p.audited} audited, ${p.failed} failed, ${p.skipped} skipped (redirects, robots.txt, limits)`,
  );
  if (batch.options.render) {
    const rendered = pages.filter((x) => x.state === 'done' && x.facts?.render !== undefined);
    const inconclusive = rendered.filter((x) => x.facts?.render === 'inconclusive').length;
    lines.push(
      `Rendered in Chromium: ${rendered.length - inconclusive} page(s)${inconclusive > 0 ? `, ${inconclusive} inconclusive (their raw results are kept)` : ''}`,
    );
  }
  if (s) {
    lines.push(
      `Results: ${s.bands.good} good, ${s.bands.decent} decent, ${s.bands.bad} bad; average score ${s.averageScore ?? '-'}`,
    );
  }
  lines.push('', table(pageRows(pages, limit)));
  const found = findings.filter((f) => f.count > 0);
  lines.push('', found.length === 0 ? 'Site-level findings: none' : 'Site-level findings:');
  if (found.length > 0)
    lines.push(table([['PAGES', 'FINDING'], ...found.map((f) => [String(f.count), f.title])]));
  if (s && s.topChecks.length > 0) {
    lines.push('', 'Checks failing on the most pages:');
    lines.push(
      table([
        ['PAGES', 'CHECK'],
        ...s.topChecks.slice(0, 5).map((c) => [String(c.pages), `${c.title} (${c.id})`]),
      ]),
    );
  }
  return `${lines.join('\n')}\n`;
}
