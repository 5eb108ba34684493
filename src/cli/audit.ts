// `pagegrade audit URL [--json] [--fail-on decent|bad] [--baseline FILE [--fail-on-regression
// [--max-drop N]]]`: audits a page without a server; with a baseline (a saved --json output),
// prints what changed since it and can fail a build on a regression (docs/history.md).
import { readFileSync } from 'node:fs';
import { InvalidArgumentError, Option, type Command } from 'commander';
import type { AuditReport } from '../analyzer/types.js';
import { CATEGORIES, LATER_CATEGORIES, RESULTS } from '../analyzer/types.js';
import type { DiffInput } from '../analyzer/diff.js';
import { loadCliConfig } from './config.js';
import { CliError, EXIT } from './exit-codes.js';

interface AuditOptions {
  json?: boolean;
  failOn: 'decent' | 'bad';
  baseline?: string;
  failOnRegression?: boolean;
  maxDrop?: number;
  render?: boolean;
}

function points(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 100) {
    throw new InvalidArgumentError('a whole number of points from 0 to 100.');
  }
  return Number(value);
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A saved report: the `--json` output of `pagegrade audit` (or the API's report, bare or as
 * `{"data": report}`). Only what a diff reads is checked; anything else is a CLI error.
 */
function readBaseline(file: string): AuditReport {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new CliError(
      `--baseline ${file}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}.`,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new CliError(
      `--baseline ${file}: not JSON (save one with \`pagegrade audit URL --json > ${file}\`).`,
    );
  }
  if (isObject(value) && isObject(value.data)) value = value.data;
  const problem = baselineProblem(value);
  if (problem)
    throw new CliError(`--baseline ${file}: not a saved \`pagegrade audit --json\` report (${problem}).`);
  return value as AuditReport;
}

function baselineProblem(v: unknown): string | null {
  if (!isObject(v)) return 'not an object';
  if (typeof v.url !== 'string' || typeof v.final_url !== 'string') return 'no url';
  if (typeof v.score !== 'number') return 'no score';
  if (!RESULTS.includes(v.result as never)) return 'no result';
  if (
    !isObject(v.categories) ||
    // a report saved before accessibility and ai existed has no entry for them
    CATEGORIES.some(
      (c) =>
        !(LATER_CATEGORIES as readonly string[]).includes(c) &&
        !isObject((v.categories as Record<string, unknown>)[c]),
    )
  )
    return 'no categories';
  if (!isObject(v.results)) return 'no results';
  for (const [id, r] of Object.entries(v.results)) {
    if (!isObject(r) || !('passed' in r) || typeof r.title !== 'string' || typeof r.priority !== 'string')
      return `results.${id} is not a check result`;
  }
  const p = v.page;
  if (!isObject(p) || !isObject(p.sizes) || !isObject(p.timings) || !Array.isArray(p.redirects))
    return 'no page facts';
  return null;
}

const diffInput = (a: AuditReport): DiffInput => ({ ...a, finalUrl: a.final_url });

export function registerAuditCommand(program: Command): void {
  program
    .command('audit')
    .description(
      'Audit a page and print the report (exit 0 good/decent, 1 bad or a regression, 2 not fetched or wrong arguments).',
    )
    .argument('<url>', 'the page to audit (http or https)')
    .option('--json', 'print the report as JSON')
    .addOption(
      new Option('--fail-on <result>', 'the result that makes the exit code 1')
        .choices(['decent', 'bad'])
        .default('bad'),
    )
    .option(
      '--render',
      'render the page in headless Chromium too: results of the rendered DOM, what JavaScript changed (docs/rendering.md)',
    )
    .option('--baseline <file>', 'a saved --json output: print what changed since it')
    .option(
      '--fail-on-regression',
      'with --baseline: exit 1 when a check newly failed or the score dropped by more than --max-drop points',
    )
    .addOption(
      new Option(
        '--max-drop <points>',
        'with --fail-on-regression: points the score may drop (default 0)',
      ).argParser(points),
    )
    .action(async (url: string, opts: AuditOptions) => {
      // One page, then exit: WebAssembly (undici's HTTP parser) compiled by the baseline
      // compiler only. The optimizing tier would double the process's peak memory (≈ +40 MB)
      // for code that runs a few milliseconds; the service keeps it (docs/contract.md, CLI).
      // (bin/pagegrade.js has set it already for the audit bundle; node:v8 loaded only here.)
      process.getBuiltinModule('node:v8').setFlagsFromString('--liftoff-only');
      const config = loadCliConfig();
      // loaded when the command runs (`pagegrade --help` and the account commands never load them)
      const [{ analyze, FetchError, normalizeUrl }, { renderReport }, { didYouMean }] = await Promise.all([
        import('../analyzer/index.js'),
        import('./render-report.js'),
        import('../analyzer/url.js'),
      ]);
      if (normalizeUrl(url) === null)
        throw new CliError(`"${url}" is not an absolute http or https URL${didYouMean(url) || '.'}`);
      if (opts.failOnRegression && opts.baseline === undefined)
        throw new CliError(
          '--fail-on-regression needs --baseline FILE (a saved `pagegrade audit --json` output).',
        );
      if (opts.maxDrop !== undefined && !opts.failOnRegression)
        throw new CliError('--max-drop only counts with --fail-on-regression.');
      // the baseline is read first: a bad file fails before the page is fetched
      const baseline = opts.baseline === undefined ? null : readBaseline(opts.baseline);

      // --render: Chromium, started for this one page and closed after it
      const renderer = opts.render ? (await import('../render/index.js')).rendererFromConfig(config) : null;
      const unavailable = renderer?.unavailable() ?? null;
      if (unavailable !== null) throw new CliError(`--render: ${unavailable}`);
      let report;
      try {
        report = await analyze(url, {
          allowPrivateHosts: config.allowPrivateHosts,
          timeoutMs: config.fetchTimeoutMs,
          maxBytes: config.fetchMaxBytes,
          ...(config.userAgent ? { userAgent: config.userAgent } : {}),
          ...(renderer ? { render: (snapshot) => renderer.render(snapshot) } : {}),
        });
      } catch (err) {
        if (err instanceof FetchError) throw new CliError(`could not audit ${url}: ${err.message}`);
        throw err;
      } finally {
        await renderer?.close();
      }
      if (report.render && !opts.json) {
        const r = report.render;
        process.stderr.write(
          r.status === 'completed'
            ? `Rendered in Chromium (${r.timings.total_ms} ms, ${r.requests} requests): ${r.differences.length} check(s) changed by JavaScript (raw score ${r.raw.score}).\n`
            : `Rendered audit inconclusive (${r.reason ?? 'unknown'}): the results are the raw HTML's.\n`,
        );
      }

      const diffs = baseline ? await import('../analyzer/diff.js') : null;
      const diff = baseline && diffs ? diffs.diffRuns(diffInput(baseline), diffInput(report)) : null;
      const gate =
        diff && diffs && opts.failOnRegression ? diffs.regressionReasons(diff, opts.maxDrop ?? 0) : null;
      if (opts.json) {
        const out =
          diff && diffs ? { ...report, diff: { ...diff, regression: diffs.isRegression(diff) } } : report;
        process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
        if (gate?.length) process.stderr.write(`Regression gate: failed — ${gate.join('; ')}\n`);
      } else {
        const color = process.stdout.isTTY === true && process.stdout.hasColors();
        process.stdout.write(renderReport(report, { color, width: process.stdout.columns ?? 100 }));
        if (diff && baseline) {
          const { renderDiff } = await import('./render-diff.js');
          const when = baseline.generated_at ? ` of ${baseline.generated_at}` : '';
          const other = baseline.url !== report.url ? `, a report of ${baseline.url}` : '';
          process.stdout.write(renderDiff(diff, { color, against: `the baseline${when}${other}`, gate }));
        }
      }
      const failing = opts.failOn === 'decent' ? ['decent', 'bad'] : ['bad'];
      const failed = failing.includes(report.result) || (gate !== null && gate.length > 0);
      process.exitCode = failed ? EXIT.failedGate : EXIT.ok;
    });
}
