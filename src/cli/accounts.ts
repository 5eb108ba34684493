// `pagegrade users create NAME` and `pagegrade keys create|list|revoke`: accounts and API keys
// from the command line. Opens the configured database, migrates it, runs, closes.
import type { Command } from 'commander';
import { analyze } from '../analyzer/index.js';
import { AppError } from '../errors.js';
import { createServices, type ApiKeyInfo, type Services } from '../services/index.js';
import { createDb, migrate } from '../store/database.js';
import { loadCliConfig } from './config.js';
import { CliError } from './exit-codes.js';

/** Runs `fn` with services over the configured database; AppErrors become CliErrors (exit 2). */
async function withServices<T>(fn: (services: Services) => Promise<T>): Promise<T> {
  const config = loadCliConfig();
  const handle = createDb(config.databaseUrl);
  try {
    try {
      await migrate(handle.db);
    } catch (err) {
      throw new CliError(`cannot open the database: ${err instanceof Error ? err.message : String(err)}`);
    }
    return await fn(createServices({ db: handle.db, analyze, config }));
  } catch (err) {
    if (err instanceof AppError) throw new CliError(err.message.replace(/\.$/, ''));
    throw err;
  } finally {
    await handle.close();
  }
}

function keyId(raw: string): number {
  if (!/^\d{1,10}$/.test(raw))
    throw new CliError(`KEY_ID must be a key's numeric id (see "pagegrade keys list"), got "${raw}"`);
  return Number(raw);
}

/** `--expires`: 30d, 12h, 2w, 90m, or an ISO date; an ISO date-time string. */
export function expiryDate(text: string, now = new Date()): string {
  const m = /^(\d{1,6})([mhdw])$/.exec(text.trim());
  if (m) {
    const unit = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 }[m[2] as 'm' | 'h' | 'd' | 'w'];
    const n = Number(m[1]);
    if (n > 0) return new Date(now.getTime() + n * unit).toISOString();
  }
  const t = /^\d{4}-\d{2}-\d{2}/.test(text) ? Date.parse(text) : NaN;
  if (Number.isFinite(t)) return new Date(t).toISOString();
  throw new CliError(
    `--expires must be a duration such as 30d, 12h, 2w or 90m, or an ISO date such as 2027-01-31; got "${text}"`,
  );
}

function keyLine(k: ApiKeyInfo): string[] {
  return [
    String(k.id),
    k.userName,
    k.prefix,
    k.scopes.includes('write') ? 'write' : 'read',
    k.projects ? k.projects.join(',') : '*',
    k.createdAt,
    k.lastUsedAt ?? 'never',
    k.expiresAt ?? 'never',
    k.revokedAt ?? '-',
  ];
}

/** Aligned columns, one key a line; a header line only on a terminal. */
function keyTable(keys: ApiKeyInfo[], header: boolean): string {
  const rows = keys.map(keyLine);
  if (header)
    rows.unshift(['ID', 'USER', 'PREFIX', 'SCOPE', 'PROJECTS', 'CREATED', 'LAST USED', 'EXPIRES', 'REVOKED']);
  const widths = rows.reduce<number[]>((w, r) => r.map((c, i) => Math.max(w[i] ?? 0, c.length)), []);
  return rows
    .map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join('  '))
    .join('\n');
}

export function registerUserCommands(program: Command): void {
  const users = program.command('users').description('Manage users.');
  users
    .command('create')
    .description('Create a user and its first API key (the key is printed once, alone on the last line).')
    .argument('<name>', 'the new user\'s name (letters, digits, ".", "_", "@", "-")')
    .action(async (name: string) => {
      await withServices(async (s) => {
        const { user, key } = await s.users.create(name);
        process.stdout.write(
          `Created user "${user.name}" (id ${user.id}) with key ${key.info.id} (${key.info.prefix}…).\n` +
            `The API key is shown this once; keep it safe:\n${key.key}\n`,
        );
      });
    });
}

export function registerKeyCommands(program: Command): void {
  const keys = program.command('keys').description('Manage API keys.');
  keys
    .command('create')
    .description('Issue a new API key for a user (printed once, alone on the last line).')
    .argument('<user>', "the user's name or id")
    .option('--scope <scope>', 'read (GET only) or write (everything)', 'write')
    .option(
      '--project <name>',
      'limit the key to this project (repeat for several); default: every project',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option('--expires <when>', 'expiry: a duration (30d, 12h, 2w) or an ISO date; default: never')
    .action(async (user: string, opts: { scope: string; project?: string[]; expires?: string }) => {
      const expiresAt = opts.expires === undefined ? null : expiryDate(opts.expires);
      if (opts.scope !== 'read' && opts.scope !== 'write')
        throw new CliError(`--scope must be one of: read, write; got "${opts.scope}"`);
      await withServices(async (s) => {
        const { info, key } = await s.keys.create(user, {
          scope: opts.scope as 'read' | 'write',
          projects: opts.project ?? null,
          expiresAt,
        });
        process.stdout.write(
          `Created key ${info.id} (${info.prefix}…) for user "${info.userName}" (id ${info.userId}): ` +
            `scopes ${info.scopes.join(', ')}; projects ${info.projects ? info.projects.join(', ') : 'all'}; ` +
            `expires ${info.expiresAt ?? 'never'}.\n` +
            `The API key is shown this once; keep it safe:\n${key}\n`,
        );
      });
    });
  keys
    .command('list')
    .description(
      "List API keys (all, or one user's): id, user, prefix, scope, projects, created, last used, expires, revoked. Never secrets.",
    )
    .argument('[user]', "a user's name or id")
    .option('--json', 'print a JSON array of {id, user, prefix, created_at, last_used_at, revoked_at, scopes, projects, expires_at}')
    .action(async (user: string | undefined, opts: { json?: boolean }) => {
      await withServices(async (s) => {
        const list = await s.keys.list(user);
        if (opts.json) {
          const out = list.map((k) => ({
            id: k.id,
            user: k.userName,
            prefix: k.prefix,
            created_at: k.createdAt,
            last_used_at: k.lastUsedAt,
            revoked_at: k.revokedAt,
            scopes: k.scopes,
            projects: k.projects,
            expires_at: k.expiresAt,
          }));
          process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
        } else if (list.length > 0) {
          process.stdout.write(`${keyTable(list, process.stdout.isTTY === true)}\n`);
        } else {
          process.stderr.write('No keys.\n');
        }
      });
    });
  keys
    .command('revoke')
    .description('Revoke an API key: requests with it get 401 from now on.')
    .argument('<key_id>', "the key's id (see keys list)")
    .action(async (raw: string) => {
      const id = keyId(raw);
      await withServices(async (s) => {
        const k = await s.keys.revoke(id);
        process.stdout.write(
          `Revoked key ${k.id} (${k.prefix}…) of user "${k.userName}" at ${k.revokedAt}.\n`,
        );
      });
    });
}
