// Exit codes of the `pagegrade` command, in one place (SPEC §1).
export const EXIT = {
  /** success; for `audit`: the result is good or decent (or passes --fail-on) */
  ok: 0,
  /** `audit`: the result is bad (or decent with --fail-on decent), or a regression with --fail-on-regression */
  failedGate: 1,
  /** the page could not be fetched, the arguments are wrong, or the command failed */
  error: 2,
  /** `ci`: the results could not be posted to GitHub or GitLab, and the configuration requires it */
  reportFailed: 3,
  /** stopped by Ctrl-C (SIGINT): `crawl` prints what it audited so far */
  interrupted: 130,
} as const;

/** An error that the CLI prints as `error: <message>` (no stack) before exiting with `code`. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly code: number = EXIT.error,
  ) {
    super(message);
    this.name = 'CliError';
  }
}
