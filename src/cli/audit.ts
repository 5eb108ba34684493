// `pagegrade audit URL [--json] [--fail-on decent|bad]`: audits a page without a server.
import { Option, type Command } from 'commander';
import { analyze, FetchError, normalizeUrl } from '../analyzer/index.js';
import { loadCliConfig } from './config.js';
import { CliError, EXIT } from './exit-codes.js';
import { renderReport } from './render-report.js';

export function registerAuditCommand(program: Command): void {
  program
    .command('audit')
    .description(
      'Audit a page and print the report (exit 0 good/decent, 1 bad, 2 not fetched or wrong arguments).',
    )
    .argument('<url>', 'the page to audit (http or https)')
    .option('--json', 'print the report as JSON')
    .addOption(
      new Option('--fail-on <result>', 'the result that makes the exit code 1')
        .choices(['decent', 'bad'])
        .default('bad'),
    )
    .action(async (url: string, opts: { json?: boolean; failOn: 'decent' | 'bad' }) => {
      const config = loadCliConfig();
      if (normalizeUrl(url) === null) throw new CliError(`"${url}" is not an absolute http or https URL.`);

      let report;
      try {
        report = await analyze(url, {
          allowPrivateHosts: config.allowPrivateHosts,
          timeoutMs: config.fetchTimeoutMs,
          maxBytes: config.fetchMaxBytes,
          ...(config.userAgent ? { userAgent: config.userAgent } : {}),
        });
      } catch (err) {
        if (err instanceof FetchError) throw new CliError(`could not audit ${url}: ${err.message}`);
        throw err;
      }

      if (opts.json) {
        process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      } else {
        const color = process.stdout.isTTY === true && process.stdout.hasColors();
        process.stdout.write(renderReport(report, { color, width: process.stdout.columns ?? 100 }));
      }
      const failing = opts.failOn === 'decent' ? ['decent', 'bad'] : ['bad'];
      process.exitCode = failing.includes(report.result) ? EXIT.failedGate : EXIT.ok;
    });
}
