// `pagegrade users create|list` and `pagegrade keys create|list|revoke`: accounts and API keys
// from the command line. Opens the configured database (and says which, on stderr), migrates
// it, runs, closes. Commands that only read or change what exists (`users list`, `keys list`,
// `keys revoke`) never create a database: on a missing SQLite file they say where they looked.
// The store and the account services are imported when a command runs, not when the CLI
// starts; nothing else of the service (reports, webhooks, the analyzer) is loaded.
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import type { ApiKeyInfo } from '../services/accounts/types.js';
import type { Services } from '../services/types.js';
import { describeDatabase, sqliteFile } from '../store/database-url.js';
import { loadCliConfig } from './config.js';
import { CliError } from './exit-codes.js';
import { table } from './table.js';

const HOW_TO_POINT =
  "Point the command at the service's database with DATABASE_URL (the same value the service runs with), " +
  'e.g. DATABASE_URL=sqlite:/srv/pagegrade/data/pagegrade.db or DATABASE_URL=postgres://user:pass@host:5432/db.';

/**
 * Runs `fn` with services over the configured database; AppErrors become CliErrors (exit 2).
 * `existing`: the command only reads or changes what exists, so a missing SQLite file is an
 * error (where it looked, how to point it elsewhere) instead of a new empty database.
 */
async function withServices<T>(
  fn: (services: Pick<Services, 'users' | 'keys'>) => Promise<T>,
  { existing }: { existing: boolean },
): Promise<T> {
  const config = loadCliConfig();
  const where = describeDatabase(config.databaseUrl);
  const file = sqliteFile(config.databaseUrl);
  if (existing && file !== null && !existsSync(file)) {
    throw new CliError(
      `no database at ${file} (DATABASE_URL=${config.databaseUrl}${process.env.DATABASE_URL ? '' : ', the default'}): nothing to show or change there. ${HOW_TO_POINT}`,
    );
  }
  const [{ createDb, migrate }, { createAccountServices }, { AppError }] = await Promise.all([
    import('../store/database.js'),
    import('../services/accounts/accounts.service.js'),
    import('../errors.js'),
  ]);
  process.stderr.write(`Using the ${where}.\n`);
  const handle = createDb(config.databaseUrl);
  try {
    try {
      await migrate(handle.db);
    } catch (err) {
      throw new CliError(`cannot open the ${where}: ${err instanceof Error ? err.message : String(err)}`);
    }
    return await fn(createAccountServices({ db: handle.db, config, now: () => new Date() }));
  } catch (err) {
    if (err instanceof AppError) throw new CliError(err.message.replace(/\.$/, ''));
    throw err;
  } finally {
    await handle.close();
  }
}

/**
 * Running services see a revocation made here at once from the database itself (its triggers:
 * src/store/key-changes.ts), with or without Redis. With REDIS_URL set it is also published on
 * Redis, as the services publish their own; a failure there loses nothing.
 */
async function tellRunningServices(): Promise<void> {
  const config = loadCliConfig();
  if (!config.redisUrl) return;
  const { createRedis, closeRedis, keysChangedChannel } = await import('../store/redis.js');
  const redis = createRedis(config);
  try {
    await redis!.publish(keysChangedChannel(config.redisPrefix), '1');
  } catch {
    // the database's signal carries it anyway
  } finally {
    await closeRedis(redis);
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

export function registerUserCommands(program: Command): void {
  const users = program.command('users').description('Manage users.');
  users
    .command('create')
    .description('Create a user and its first API key (the key is printed once, alone on the last line).')
    .argument('<name>', 'the new user\'s name (letters, digits, ".", "_", "@", "-")')
    .action(async (name: string) => {
      await withServices(
        async (s) => {
          const { user, key } = await s.users.create(name);
          process.stdout.write(
            `Created user "${user.name}" (id ${user.id}) with key ${key.info.id} (${key.info.prefix}…).\n` +
              `The API key is shown this once; keep it safe:\n${key.key}\n`,
          );
        },
        { existing: false },
      );
    });
  users
    .command('list')
    .description('List users: id, name, created, active keys.')
    .option('--json', 'print a JSON array of {id, name, created_at, active_keys}')
    .action(async (opts: { json?: boolean }) => {
      await withServices(
        async (s) => {
          const [list, keys] = await Promise.all([s.users.list(), s.keys.list()]);
          const active = new Map<number, number>();
          for (const k of keys)
            if (k.revokedAt === null) active.set(k.userId, (active.get(k.userId) ?? 0) + 1);
          const rows = list.map((u) => ({
            id: u.id,
            name: u.name,
            created_at: u.createdAt,
            active_keys: active.get(u.id) ?? 0,
          }));
          if (opts.json) return void process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
          if (rows.length === 0) return void process.stderr.write('No users.\n');
          const lines = rows.map((u) => [String(u.id), u.name, u.created_at, String(u.active_keys)]);
          process.stdout.write(`${table([['ID', 'NAME', 'CREATED', 'ACTIVE KEYS'], ...lines])}\n`);
        },
        { existing: true },
      );
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
      await withServices(
        async (s) => {
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
        },
        { existing: false },
      );
    });
  keys
    .command('list')
    .description(
      "List API keys (all, or one user's): id, user, prefix, scope, projects, created, last used, expires, revoked. Never secrets.",
    )
    .argument('[user]', "a user's name or id")
    .option(
      '--json',
      'print a JSON array of {id, user, prefix, created_at, last_used_at, revoked_at, scopes, projects, expires_at}',
    )
    .action(async (user: string | undefined, opts: { json?: boolean }) => {
      await withServices(
        async (s) => {
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
            const header = [
              'ID',
              'USER',
              'PREFIX',
              'SCOPE',
              'PROJECTS',
              'CREATED',
              'LAST USED',
              'EXPIRES',
              'REVOKED',
            ];
            process.stdout.write(`${table([header, ...list.map(keyLine)])}\n`);
          } else {
            process.stderr.write('No keys.\n');
          }
        },
        { existing: true },
      );
    });
  keys
    .command('revoke')
    .description('Revoke an API key: requests with it get 401 from now on.')
    .argument('<key_id>', "the key's id (see keys list)")
    .action(async (raw: string) => {
      const id = keyId(raw);
      await withServices(
        async (s) => {
          const k = await s.keys.revoke(id);
          process.stdout.write(
            `Revoked key ${k.id} (${k.prefix}…) of user "${k.userName}" at ${k.revokedAt}.\n`,
          );
          await tellRunningServices();
        },
        { existing: true },
      );
    });
}
