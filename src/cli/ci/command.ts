// `pagegrade ci [--config FILE] [--junit FILE] [--codequality FILE] [--sarif FILE] [--markdown
// FILE] [--json FILE] [--github] [--gitlab] [--upload [--server URL] [--token KEY] [--project NAME]
// [--fail-on-regression]]`: audits what pagegrade.config.json (or .yaml, or --config) names and
// judges its assertions and budgets, for a CI job (docs/ci.md). Registered here with commander
// alone; runner.ts and what it uses load when the command runs.
import type { Command } from 'commander';
import type { CiOptions } from './runner.js';

const CI_EXIT_CODES = `
Exit codes:
  0    every error-level assertion holds (warnings are printed, they do not fail)
  1    an error-level assertion fails, or (--fail-on-regression) the uploaded build regressed
  2    the configuration is wrong (the message names the key), or a URL, the served folder,
       the start command or the crawl could not be used, or the upload failed
  3    the results could not be posted to GitHub or GitLab and report.<platform>.required is
       set (without it: a warning, and the code is 0 or 1)
  130  stopped by Ctrl-C (143: by SIGTERM); a started command is killed with its process group`;

export function registerCiCommand(program: Command): void {
  program
    .command('ci')
    .description(
      'Audit the pages a configuration file names and judge its assertions and budgets (docs/ci.md; exit codes below).',
    )
    .option('--config <file>', 'the configuration (default: pagegrade.config.json, .yaml or .yml here)')
    .option('--junit <file>', 'write JUnit XML: a testsuite per URL, a testcase per assertion')
    .option('--codequality <file>', 'write a GitLab Code Quality report (JSON)')
    .option('--sarif <file>', 'write SARIF 2.1.0 (GitHub code scanning)')
    .option('--markdown <file>', 'write a Markdown summary (also appended to $GITHUB_STEP_SUMMARY when set)')
    .option('--json <file>', "write the results as JSON (every URL's figures, runs and assertions)")
    .option(
      '--github',
      'post a commit status (or check run) and one pull-request comment, updated on every run (report.github; token: PAGEGRADE_GITHUB_TOKEN or GITHUB_TOKEN)',
    )
    .option(
      '--gitlab',
      'post a commit status and one merge-request note, updated on every run (report.gitlab; token: PAGEGRADE_GITLAB_TOKEN)',
    )
    .option(
      '--upload',
      'send the results to a Pagegrade server as a build and print its comparison with the base (docs/ci.md "Builds")',
    )
    .option('--server <url>', 'the Pagegrade server (default: upload.server, else PAGEGRADE_SERVER)')
    .option(
      '--token <key>',
      'an API key with write scope (default: PAGEGRADE_TOKEN, else upload.token); never printed',
    )
    .option('--project <name>', "the build's project (default: upload.project, else the first URL's host)")
    .option('--fail-on-regression', 'exit 1 when the server says the build regressed against its base')
    .addHelpText('after', CI_EXIT_CODES)
    .action(async (opts: Record<string, string | boolean | undefined>) => {
      const { runCi } = await import('./runner.js');
      process.exitCode = await runCi(opts as CiOptions, process.cwd());
    });
}
