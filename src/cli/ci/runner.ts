// `pagegrade ci`, once its options are read (command.ts loads this module when the command
// runs): the configuration, the site made ready (served, started, crawled), every URL audited
// `runs` times, the assertions judged on the median figures, the reports written. Exit 0 when
// every error-level assertion holds, 1 when one fails, 2 when the configuration or a URL could
// not be used (docs/ci.md).
import { writeFileSync, appendFileSync } from 'node:fs';
import { analyze, FetchError } from '../../analyzer/index.js';
import { checks } from '../../analyzer/checks/index.js';
import { BROWSER_CHECK_IDS } from '../../analyzer/rendered.js';
import type { AuditReport } from '../../analyzer/types.js';
import { FINDINGS } from '../../crawl/findings/index.js';
import { loadCliConfig } from '../config.js';
import { CliError, EXIT } from '../exit-codes.js';
import {
  evaluateFindings,
  evaluatePage,
  failedErrors,
  medianFigures,
  rulesFor,
  type CiResults,
  type PageResult,
} from './assertions.js';
import { findConfig, loadCiConfig } from './config.js';
import { codeQuality, junitXml, sarifLog } from './formats.js';
import { prepareReporter } from './report.js';
import { markdownSummary, terminalTable } from './reporters.js';
import { comparisonText, summariseComparison, uploadBuild } from './upload.js';
import { crawlSite, serveFolder, startCommand, type Served, type Started } from './targets.js';

export interface CiOptions {
  config?: string;
  junit?: string;
  codequality?: string;
  sarif?: string;
  markdown?: string;
  json?: string;
  /** post a status and a comment on the pull request (report.github) */
  github?: boolean;
  /** post a status and a note on the merge request (report.gitlab) */
  gitlab?: boolean;
  /** send the results to a Pagegrade server as a build (also when the config has `upload`) */
  upload?: boolean;
  server?: string;
  token?: string;
  project?: string;
  /** exit 1 when the server's comparison says the build regressed */
  failOnRegression?: boolean;
}

/** Colours on a terminal only: not when NO_COLOR is set, nor in CI (CI=true). */
export function useColour(stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.CI !== undefined && env.CI !== '' && env.CI !== 'false' && env.CI !== '0') return false;
  return stream.isTTY === true && stream.hasColors();
}

/** The report whose load time is the median of the runs (the one whose checks are judged). */
function representative(reports: AuditReport[]): AuditReport {
  const sorted = [...reports].sort((a, b) => a.page.timings.total_ms - b.page.timings.total_ms);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

function write(file: string, text: string, option: string): void {
  try {
    writeFileSync(file, text);
  } catch (err) {
    throw new CliError(`${option} ${file}: ${(err as Error).message}`);
  }
}

export async function runCi(opts: CiOptions, cwd: string): Promise<number> {
  const config = loadCliConfig();
  const file = findConfig(opts.config, cwd);
  const ci = loadCiConfig(
    file,
    { checks: [...checks.map((c) => c.id), ...BROWSER_CHECK_IDS], findings: FINDINGS.map((f) => f.id) },
    cwd,
  );
  const upload = opts.upload === true || ci.upload !== null;
  if (opts.failOnRegression === true && !upload)
    throw new CliError(
      '--fail-on-regression needs --upload (or `upload` in the config): the server compares builds.',
    );
  const findingRules = [...ci.rules.entries()].filter(([, r]) => r.kind === 'finding' && r.level !== 'off');
  if (ci.crawl === null && findingRules.length > 0)
    process.stderr.write(
      `note: site findings are judged on a crawl; without \`crawl\` these are not: ${findingRules.map(([id]) => id).join(', ')}\n`,
    );

  const reporter = prepareReporter(ci.report, opts, process.env, ci.file);

  const renderer = ci.render ? (await import('../../render/index.js')).rendererFromConfig(config) : null;
  const unavailable = renderer?.unavailable() ?? null;
  if (unavailable !== null) throw new CliError(`render: ${unavailable}`);
  let served: Served | null = null;
  let started: Started | null = null;
  // Ctrl-C, or the CI cancelling the job: exit at once; the started command's process group is
  // killed on the way out (targets.ts)
  const onSignal = (signal: NodeJS.Signals) => process.exit(signal === 'SIGINT' ? EXIT.interrupted : 143);
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    if (ci.serve !== null) served = await serveFolder(ci.serve);
    if (ci.start !== null) started = await startCommand(ci.start.command, ci.start.url, ci.start.timeoutMs);
    const base = served?.origin ?? started?.origin ?? null;
    // the site the config serves or starts is on this machine: its loopback address is allowed
    const auditConfig = base === null ? config : { ...config, allowPrivateHosts: true };
    const absolute = (u: string) => (u.startsWith('/') && base !== null ? `${base}${u}` : u);
    const urls = ci.urls.map(absolute);

    let site: CiResults['site'] = null;
    if (ci.crawl !== null) {
      const start = absolute(ci.crawl.start);
      process.stderr.write(`Crawling ${start} …\n`);
      const crawl = await crawlSite(auditConfig, start, {
        ...(ci.crawl.maxPages !== undefined ? { maxPages: ci.crawl.maxPages } : {}),
        ...(ci.crawl.maxDepth !== undefined ? { maxDepth: ci.crawl.maxDepth } : {}),
        render: ci.render,
      });
      if (crawl.failure !== null) throw new CliError(`could not crawl ${start}: ${crawl.failure}`);
      process.stderr.write(`Crawled ${crawl.pages.length} page(s).\n`);
      for (const p of crawl.pages) if (!urls.includes(p)) urls.push(p);
      site = { url: start, outcomes: evaluateFindings(crawl.findings, ci.rules, ci.preset) };
    }

    const pages: PageResult[] = [];
    /** each URL's representative report, sent by --upload */
    const representatives: AuditReport[] = [];
    for (const url of urls) {
      const reports: AuditReport[] = [];
      for (let run = 1; run <= ci.runs; run++) {
        try {
          reports.push(
            await analyze(url, {
              allowPrivateHosts: auditConfig.allowPrivateHosts,
              timeoutMs: config.fetchTimeoutMs,
              maxBytes: config.fetchMaxBytes,
              ...(config.userAgent ? { userAgent: config.userAgent } : {}),
              ...(renderer ? { render: (snapshot) => renderer.render(snapshot) } : {}),
            }),
          );
        } catch (err) {
          if (err instanceof FetchError) throw new CliError(`could not audit ${url}: ${err.message}`);
          throw err;
        }
        const last = reports[reports.length - 1]!;
        process.stderr.write(
          `Audited ${url}${ci.runs > 1 ? ` (run ${run} of ${ci.runs})` : ''}: ${last.score} (${last.result}), ${last.page.timings.total_ms} ms\n`,
        );
      }
      const rep = representative(reports);
      representatives.push(rep);
      const figures = medianFigures(reports);
      pages.push({
        url,
        score: rep.score,
        result: rep.result,
        figures,
        runs: reports.map((r) => medianFigures([r])),
        outcomes: evaluatePage(rep, figures, rulesFor(url, ci.rules, ci.matrix), ci.preset),
      });
    }

    const results: CiResults = { config: ci.file, pages, site };
    if (opts.junit) write(opts.junit, junitXml(results), '--junit');
    if (opts.codequality)
      write(opts.codequality, `${JSON.stringify(codeQuality(results), null, 2)}\n`, '--codequality');
    if (opts.sarif) write(opts.sarif, `${JSON.stringify(sarifLog(results), null, 2)}\n`, '--sarif');
    if (opts.json) write(opts.json, `${JSON.stringify(results, null, 2)}\n`, '--json');
    const markdown = opts.markdown || process.env.GITHUB_STEP_SUMMARY ? markdownSummary(results) : null;
    if (opts.markdown && markdown !== null) write(opts.markdown, markdown, '--markdown');
    const summary = process.env.GITHUB_STEP_SUMMARY;
    if (summary && markdown !== null) {
      try {
        appendFileSync(summary, markdown);
      } catch (err) {
        process.stderr.write(`warning: GITHUB_STEP_SUMMARY ${summary}: ${(err as Error).message}\n`);
      }
    }
    process.stdout.write(terminalTable(results, useColour(process.stdout, process.env)));
    let regressed = false;
    let comparisonMarkdown = '';
    if (upload) {
      const uploaded = await uploadBuild(
        ci.upload ?? {},
        {
          ...(opts.server !== undefined ? { server: opts.server } : {}),
          ...(opts.token !== undefined ? { token: opts.token } : {}),
          ...(opts.project !== undefined ? { project: opts.project } : {}),
        },
        process.env,
        cwd,
        { pages, reports: representatives, localOrigin: base },
      );
      process.stdout.write(comparisonText(uploaded));
      comparisonMarkdown = summariseComparison(uploaded, process.env);
      regressed = uploaded.comparison.regressed;
    }
    const failedCount = failedErrors(results).length;
    const failed = failedCount > 0 || (opts.failOnRegression === true && regressed);
    // the pull request's status and comment: the assertions, and the build's comparison when uploaded
    const posted = await reporter?.publish({
      state: failed ? 'failure' : 'success',
      summaryMarkdown: `${markdown ?? markdownSummary(results)}${comparisonMarkdown ? `\n${comparisonMarkdown}` : ''}`,
      description:
        failedCount > 0
          ? `${failedCount} error-level assertion(s) failed on ${pages.length} URL(s)`
          : failed
            ? `The build regressed against its base (${pages.length} URL(s))`
            : `Every error-level assertion holds on ${pages.length} URL(s)`,
    });
    return posted ?? (failed ? EXIT.failedGate : EXIT.ok);
  } catch (err) {
    // the site or a URL could not be used (exit 2): the pull request says so, never nothing
    if (reporter && err instanceof CliError)
      await reporter.publish({
        state: 'error',
        summaryMarkdown: `## Pagegrade CI\n\n**Pagegrade could not run** (exit ${err.code}):\n\n\`\`\`\n${err.message.replace(/`{3,}/g, "'''")}\n\`\`\`\n`,
        description: `Could not run: ${err.message}`,
      });
    throw err;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await renderer?.close().catch(() => {});
    await started?.stop().catch(() => {});
    await served?.close().catch(() => {});
  }
}
