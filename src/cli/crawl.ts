// `pagegrade crawl URL [--sitemap] [--max-pages N] [--max-depth N] [--render] [--json] [--csv FILE]
// [--fail-on decent|bad]`: audits a whole site without a server (docs/sites.md). The batch runs
// in this process exactly as the service runs it — the same crawler, politeness, address guard
// and findings (services.batches on the embedded job engine) — on a database in memory that
// goes away with the process. Progress goes to stderr (a bar on a terminal, plain lines
// otherwise); the summary table, or the JSON, to stdout. Exit codes as `audit`: 1 when an
// audited page's result is at or below --fail-on, 2 when the start URL (or the sitemap) could
// not be fetched or the arguments are wrong.
import { InvalidArgumentError, Option, type Command } from 'commander';
import { loadCliConfig } from './config.js';
import { CliError } from './exit-codes.js';

interface CrawlOptions {
  sitemap?: boolean;
  maxPages?: number;
  maxDepth?: number;
  render?: boolean;
  json?: boolean;
  csv?: string;
  failOn: 'decent' | 'bad';
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
      'Audit a whole site without a server: crawl from URL (or read its sitemap), audit every page, print a summary (exit 0, 1 when a page is at or below --fail-on, 2 when URL cannot be fetched).',
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
      '--json',
      'print the batch as JSON (summary, site-level findings, every page) instead of the table',
    )
    .option('--csv <file>', 'write one CSV row per page to FILE ("-": stdout)')
    .addOption(
      new Option('--fail-on <result>', 'the result that makes the exit code 1')
        .choices(['decent', 'bad'])
        .default('bad'),
    )
    .action(async (url: string, opts: CrawlOptions) => {
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
      const { runCrawl } = await import('./run-crawl.js');
      process.exitCode = await runCrawl(config, url, {
        mode: opts.sitemap ? 'sitemap' : 'crawl',
        ...(opts.maxPages !== undefined ? { maxPages: opts.maxPages } : {}),
        ...(opts.maxDepth !== undefined ? { maxDepth: opts.maxDepth } : {}),
        render: opts.render === true,
        json: opts.json === true,
        csv: opts.csv ?? null,
        failOn: opts.failOn,
        tableRows: TABLE_ROWS,
      });
    });
}
