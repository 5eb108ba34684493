// `pagegrade mcp`: the MCP server over stdio (docs/mcp.md), for an agent that starts it as a
// command. It acts with an API key (--key or PAGEGRADE_API_KEY) on the configured database, as
// the service does: the same services in this process, the same access table for every tool
// call (src/mcp/server.ts), the key looked up again at each call (a revocation counts at once).
// The job workers run here too unless PAGEGRADE_WORKER=0 (a crawl started by an agent
// progresses without `npm start`; with the service running on the same database both work
// the queue). stdout carries the protocol only: every message of ours goes to stderr. It
// ends when the client closes stdin, or on SIGTERM/SIGINT.
import type { Command } from 'commander';
import { CliError } from './exit-codes.js';

export function registerMcpCommand(program: Command): void {
  program
    .command('mcp')
    .description(
      'Serve the Model Context Protocol over stdio for an AI agent: audit pages, read reports, compare runs, crawl sites, with the rights of an API key (docs/mcp.md).',
    )
    .option('--key <key>', 'the API key to act with (default: PAGEGRADE_API_KEY)')
    .action(async (opts: { key?: string }) => {
      const key = (opts.key ?? process.env.PAGEGRADE_API_KEY ?? '').trim();
      if (key === '')
        throw new CliError('pagegrade mcp acts with an API key: pass --key <key> or set PAGEGRADE_API_KEY.');
      const { runMcp } = await import('./mcp-run.js');
      await runMcp(key);
    });
}
