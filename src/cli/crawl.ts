// `pagegrade crawl URL [--sitemap] [--max-pages N] [--max-depth N] [--render] [--check-external
// [--max-external-checks N]] [--max-site-checks N] [--thin-words N] [--near-duplicate-threshold PERCENT] [--deep-depth N]
// [--extract E…] [--json] [--csv FILE]
// [--fail-on BAND,FINDING…] [--baseline FILE [--fail-on-regression]]`: audits a whole site without a server (docs/sites.md). The batch
// runs in this process exactly as the service runs it — the same crawler, politeness, address
// guard and findings (services.batches on the embedded job engine) — on a database in memory
// that goes away with the process. Progress goes to stderr (a bar on a terminal, plain lines
// otherwise); the summary table, or the JSON, to stdout. Exit codes (CRAWL_EXIT_CODES, shown by
// --help): 0 passed; 1 the crawl failed (the start page could not be fetched or answered an
// error, robots.txt disallows every page, nothing could be audited) or the gate did (a page at
// or below --fail-on's band, a --fail-on finding found); 2 wrong arguments, the address guard
// refuses the URL, or no sitemap at a --sitemap URL; 130 stopped by Ctrl-C (after the partial
// summary).
import { InvalidArgumentError, Option, type Command } from 'commander';
import { loadCliConfig } from './config.js';
import { CliError } from './exit-codes.js';
import type { FailOn } from './run-crawl.js';
import {
  DEFAULT_MAX_EXTERNAL_CHECKS,
  DEFAULT_MAX_SITE_CHECKS,
  FINDING_SETTINGS,
  MAX_EXTERNAL_CHECKS,
  MAX_SITE_CHECKS,
} from '../crawl/defaults.js';

interface CrawlOptions {
  sitemap?: boolean;
  maxPages?: number;
  maxDepth?: number;
  render?: boolean;
  checkExternal?: boolean;
  maxExternalChecks?: number;
  maxSiteChecks?: number;
  thinWords?: number;
  nearDuplicateThreshold?: number;
  deepDepth?: number;
  json?: boolean;
  csv?: string;
  failOn: FailOn;
  baseline?: string;
  failOnRegression?: boolean;
  extract: string[];
}

/** The crawl's exit codes, as --help shows them. */
const CRAWL_EXIT_CODES = `
Exit codes:
  0    the crawl passed --fail-on
  1    the crawl failed (the start page could not be fetched or answered 4xx/5xx, robots.txt
       disallows every page, no page could be audited), or a page is at or below --fail-on's
       band, or a --fail-on finding was found, or (--fail-on-regression) the crawl regressed
       against --baseline: the site's band dropped, a high-priority finding is new (broken
       links, canonical template …), pages newly answer other than 200 or are newly noindex,
       or more than PAGEGRADE_REGRESSION_PAGE_SHARE (0.1) of the pages dropped a band
  2    wrong arguments, the address guard refuses the URL, no sitemap at a --sitemap URL
  130  stopped by Ctrl-C: the pages in progress finish and the summary of what was audited is printed`;

/**
 * `--fail-on bad`, `--fail-on decent,broken_links`, `--fail-on broken_links,canonical_template`:
 * the bands here; the finding ids are checked against the registry when the command runs (the
 * registry is not loaded to start the program).
 */
function failOn(value: string): FailOn {
  const out: FailOn = { band: null, findings: [] };
  for (const item of value.split(',').map((v) => v.trim())) {
    if (item === 'decent' || item === 'bad') {
      if (out.band !== null) throw new InvalidArgumentError('--fail-on takes one band (decent or bad).');
      out.band = item;
    } else if (/^[a-z][a-z0-9_]{0,63}$/.test(item)) {
      if (!out.findings.includes(item)) out.findings.push(item);
    } else {
      throw new InvalidArgumentError(
        `--fail-on takes a band (decent, bad) and site finding ids, comma-separated; "${item}" is neither.`,
      );
    }
  }
  return out;
}

function count(name: string, min: number, max: number) {
  return (value: string): number => {
    if (!/^\d{1,9}$/.test(value) || Number(value) < min || Number(value) > max)
      throw new InvalidArgumentError(`${name} must be a whole number from ${min} to ${max}.`);
    return Number(value);
  };
}

/** Rows shown in the pages table at the end (the exports have every page). */
const TABLE_ROWS = 40;

export function registerCrawlCommand(program: Command): void {
  program
    .command('crawl')
    .description(
      'Audit a whole site without a server: crawl from URL (or read its sitemap), audit every page, print a summary (exit codes below).',
    )
    .argument(
      '<url>',
      'the start page (http or https); with --sitemap: a sitemap, sitemap index or the site root',
    )
    .option('--sitemap', 'audit the pages of the sitemap instead of following links')
    .addOption(
      new Option('--max-pages <n>', 'at most this many pages (default 100)').argParser(
        count('--max-pages', 1, 1_000_000),
      ),
    )
    .addOption(
      new Option('--max-depth <n>', 'links followed this many hops from the start (default 10)').argParser(
        count('--max-depth', 0, 100),
      ),
    )
    .option(
      '--render',
      'render every page in headless Chromium: results of the rendered DOM, and a crawl follows the links JavaScript made (docs/rendering.md)',
    )
    .option(
      '--check-external',
      'check the links to other sites (and resources on other hosts) once each, one request at a time per host: broken_external_links, redirected_external_links (docs/sites.md)',
    )
    .addOption(
      new Option(
        '--max-external-checks <n>',
        `with --check-external: at most this many URLs of other hosts checked (default ${DEFAULT_MAX_EXTERNAL_CHECKS})`,
      ).argParser(count('--max-external-checks', 1, MAX_EXTERNAL_CHECKS)),
    )
    .addOption(
      new Option(
        '--max-site-checks <n>',
        `at most this many of the site's own URLs checked at the end — links outside the crawl, resources, fonts (default ${DEFAULT_MAX_SITE_CHECKS})`,
      ).argParser(count('--max-site-checks', 1, MAX_SITE_CHECKS)),
    )
    .addOption(threshold('--thin-words <n>', 'thin_content_words', 'thin_content: main text under this many words'))
    .addOption(
      threshold(
        '--near-duplicate-threshold <percent>',
        'near_duplicate_threshold',
        'near_duplicates: pages at least this similar, in percent',
      ),
    )
    .addOption(
      threshold('--deep-depth <n>', 'deep_page_depth', 'deep_pages: pages more links than this from the start page'),
    )
    .option(
      '--json',
      'print the batch as JSON (summary, site-level findings, every page) instead of the table',
    )
    .option('--csv <file>', 'write one CSV row per page to FILE ("-": stdout)')
    .addOption(
      new Option(
        '--extract <extractor>',
        'custom extraction, repeatable (at most 10): NAME[@ATTRIBUTE][*]=css|xpath|regex:EXPRESSION, e.g. price=css:.price, og@content=css:meta[property="og:type"], tags*=xpath://a[@rel="tag"]; a column each in --csv, `extracted` in --json (docs/sites.md, "Custom extraction")',
      )
        .argParser((v: string, prev: string[]) => [...prev, v])
        .default([], 'none'),
    )
    .addOption(
      new Option(
        '--fail-on <gate>',
        'exit 1 when a page is at or below this band (decent, bad) or when one of these site findings is found; comma-separated, e.g. bad,broken_links',
      )
        .argParser(failOn)
        .default({ band: 'bad', findings: [] }, 'bad'),
    )
    .option(
      '--baseline <file>',
      'compare with an earlier `pagegrade crawl --json` of the site: pages added, removed and changed, findings new and fixed, the site score before and after (printed after the summary; in the JSON as `diff`)',
    )
    .option(
      '--fail-on-regression',
      'with --baseline: exit 1 when the crawl regressed against it (exit codes below); --fail-on then judges no band unless given',
    )
    .addHelpText('after', CRAWL_EXIT_CODES)
    .action(async (url: string, opts: CrawlOptions, command: Command) => {
      const config = loadCliConfig();
      const { normalizeUrl, didYouMean } = await import('../analyzer/url.js');
      if (normalizeUrl(url) === null)
        throw new CliError(`"${url}" is not an absolute http or https URL${didYouMean(url) || '.'}`);
      if (opts.json && opts.csv === '-')
        throw new CliError('--json and --csv - both want stdout; give --csv a file.');
      if (opts.maxPages !== undefined && opts.maxPages > config.batchMaxPages)
        throw new CliError(
          `--max-pages may not be greater than ${config.batchMaxPages} (PAGEGRADE_BATCH_MAX_PAGES).`,
        );
      if (opts.failOnRegression && opts.baseline === undefined)
        throw new CliError('--fail-on-regression needs --baseline FILE (an earlier `pagegrade crawl --json`).');
      // with --fail-on-regression, only an explicit --fail-on judges a band as well
      const failOnGiven = command.getOptionValueSource('failOn') !== 'default';
      const gate = opts.failOnRegression && !failOnGiven ? { band: null, findings: [] } : opts.failOn;
      const { FINDINGS } = await import('../crawl/findings/index.js');
      const ids = FINDINGS.map((f) => f.id);
      const unknown = opts.failOn.findings.filter((id) => !ids.includes(id));
      if (unknown.length > 0)
        throw new CliError(
          `--fail-on: "${unknown[0]}" is not a band (decent, bad) nor a site finding id (${ids.join(', ')}).`,
        );
      const { checkExtractors, parseExtractorLine } = await import('../crawl/extract.js');
      const extractErrors: Record<string, string[]> = {};
      const { CSV_COLUMNS } = await import('../contract/batches/schemas.js');
      const extractors = checkExtractors(
        opts.extract.map(parseExtractorLine),
        extractErrors,
        '--extract',
        CSV_COLUMNS,
      );
      const firstError = Object.values(extractErrors)[0]?.[0];
      if (firstError !== undefined)
        throw new CliError(
          `${firstError.replace(/--extract\.(\d+)/g, (_m, i: string) => `--extract #${Number(i) + 1}`)} (the form is NAME[@ATTRIBUTE][*]=css|xpath|regex:EXPRESSION)`,
        );
      const { runCrawl } = await import('./run-crawl.js');
      process.exitCode = await runCrawl(config, url, {
        mode: opts.sitemap ? 'sitemap' : 'crawl',
        ...(opts.maxPages !== undefined ? { maxPages: opts.maxPages } : {}),
        ...(opts.maxDepth !== undefined ? { maxDepth: opts.maxDepth } : {}),
        render: opts.render === true,
        extractors,
        checkExternal: opts.checkExternal === true,
        ...(opts.maxExternalChecks !== undefined ? { maxExternalChecks: opts.maxExternalChecks } : {}),
        ...(opts.maxSiteChecks !== undefined ? { maxSiteChecks: opts.maxSiteChecks } : {}),
        ...(opts.thinWords !== undefined ? { thinContentWords: opts.thinWords } : {}),
        ...(opts.nearDuplicateThreshold !== undefined ? { nearDuplicateThreshold: opts.nearDuplicateThreshold } : {}),
        ...(opts.deepDepth !== undefined ? { deepPageDepth: opts.deepDepth } : {}),
        json: opts.json === true,
        csv: opts.csv ?? null,
        failOn: gate,
        baseline: opts.baseline ?? null,
        failOnRegression: opts.failOnRegression === true,
        tableRows: TABLE_ROWS,
      });
    });
}

/** A finding's threshold (docs/sites.md "Every finding"): a whole number within its bounds. */
function threshold(flags: string, name: keyof typeof FINDING_SETTINGS, what: string): Option {
  const f = FINDING_SETTINGS[name];
  return new Option(flags, `${what} (default ${f.default}; ${f.min} to ${f.max})`).argParser(
    count(flags.split(' ')[0]!, f.min, f.max),
  );
}
