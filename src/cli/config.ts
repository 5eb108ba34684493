// The CLI's configuration: the service's own (src/config.ts), with a bad value reported as a
// CLI error (exit 2) rather than a stack trace.
import { ConfigError, loadConfig, type Config } from '../config.js';
import { CliError } from './exit-codes.js';

export function loadCliConfig(): Config {
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) throw new CliError(err.message);
    throw err;
  }
}
