// `pagegrade users create|list` and `pagegrade keys create|list|revoke`: accounts and API keys
// from the command line. Opens the configured database (and says which, on stderr), migrates
// it, runs, closes. Commands that only read or change what exists (`users list`, `keys list`,
// `keys revoke`) never create a database: on a missing SQLite file they say where they looked.
// The store and the account services are imported when a command runs, not when the CLI
// starts; nothing else of the service (reports, webhooks, the analyzer) is loaded.
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import type { ApiKeyInfo, Role } from '../services/accounts/types.js';
import type { Member } from '../services/organizations/types.js';
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
export async function withServices<T>(
  fn: (services: Pick<Services, 'users' | 'keys' | 'organizations' | 'signin' | 'admin'>) => Promise<T>,
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
  const [
    { createDb, migrate },
    { createAccountServices },
    { createOrganizationServices },
    { createSignInServices },
    { createAdminServices },
    { AppError },
    { actingAs },
  ] = await Promise.all([
    import('../store/database.js'),
    import('../services/accounts/accounts.service.js'),
    import('../services/organizations/organizations.service.js'),
    import('../services/signin/signin.service.js'),
    import('../services/admin/admin.service.js'),
    import('../errors.js'),
    import('../services/shared/audit-log.js'),
  ]);
  process.stderr.write(`Using the ${where}.\n`);
  const handle = createDb(config.databaseUrl);
  try {
    try {
      await migrate(handle.db);
    } catch (err) {
      throw new CliError(`cannot open the ${where}: ${err instanceof Error ? err.message : String(err)}`);
    }
    const ctx = { db: handle.db, config, now: () => new Date() };
    const accounts = createAccountServices(ctx);
    const signin = createSignInServices(ctx, accounts);
    // the audit log records what a command changes as done by "cli"
    const cli = { actor: 'cli', userId: null, keyId: null, ip: null } as const;
    return await actingAs(cli, () =>
      fn({
        ...accounts,
        organizations: createOrganizationServices(ctx, accounts.auth.keysChanged),
        signin,
        admin: createAdminServices(ctx, {
          keysChanged: accounts.auth.keysChanged,
          totpDisable: signin.totpDisable,
        }),
      }),
    );
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
    k.orgName,
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
    .option('--email <email>', 'their email (they sign in with it; stored lower-case)')
    .option('--password-stdin', 'read their password from standard input (one line)')
    .action(async (name: string, opts: { email?: string; passwordStdin?: boolean }) => {
      const { signInOptions } = await import('./sign-in-options.js');
      const extra = await signInOptions(opts);
      await withServices(
        async (s) => {
          const { user, key } = await s.users.create(name, { ...extra, byAdmin: true });
          process.stdout.write(
            `Created user "${user.name}" (id ${user.id}), owner of the organization "${key.info.orgName}", with key ${key.info.id} (${key.info.prefix}…).\n` +
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
    .option('--scope <scope>', 'read (GET only) or write (everything); default: write, or read for a viewer')
    .option(
      '--org <name>',
      "the organization the key acts in (the user must be a member); default: the user's first",
    )
    .option(
      '--project <name>',
      'limit the key to this project (repeat for several); default: every project',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option('--expires <when>', 'expiry: a duration (30d, 12h, 2w) or an ISO date; default: never')
    .action(
      async (user: string, opts: { scope?: string; org?: string; project?: string[]; expires?: string }) => {
        const expiresAt = opts.expires === undefined ? null : expiryDate(opts.expires);
        if (opts.scope !== undefined && opts.scope !== 'read' && opts.scope !== 'write')
          throw new CliError(`--scope must be one of: read, write; got "${opts.scope}"`);
        await withServices(
          async (s) => {
            const { info, key } = await s.keys.create(user, {
              scope: opts.scope as 'read' | 'write' | undefined,
              projects: opts.project ?? null,
              expiresAt,
              org: opts.org,
            });
            process.stdout.write(
              `Created key ${info.id} (${info.prefix}…) for user "${info.userName}" (id ${info.userId}) in organization "${info.orgName}": ` +
                `scopes ${info.scopes.join(', ')}; projects ${info.projects ? info.projects.join(', ') : 'all'}; ` +
                `expires ${info.expiresAt ?? 'never'}.\n` +
                `The API key is shown this once; keep it safe:\n${key}\n`,
            );
          },
          { existing: false },
        );
      },
    );
  keys
    .command('list')
    .description(
      "List API keys (all, or one user's): id, user, prefix, scope, projects, created, last used, expires, revoked. Never secrets.",
    )
    .argument('[user]', "a user's name or id")
    .option(
      '--json',
      'print a JSON array of {id, user, organization, prefix, created_at, last_used_at, revoked_at, scopes, projects, expires_at}',
    )
    .action(async (user: string | undefined, opts: { json?: boolean }) => {
      await withServices(
        async (s) => {
          const list = await s.keys.list(user);
          if (opts.json) {
            const out = list.map((k) => ({
              id: k.id,
              user: k.userName,
              organization: k.orgName,
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
              'ORGANIZATION',
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

// the roles (src/services/accounts/types.ts ROLES), repeated: `--help` loads no service module
const ROLES: readonly Role[] = ['viewer', 'member', 'admin', 'owner'];
const ROLE_LIST = ROLES.join(', ');

function roleOf(raw: string): Role {
  if (!(ROLES as readonly string[]).includes(raw))
    throw new CliError(`--role must be one of: ${ROLE_LIST}; got "${raw}"`);
  return raw as Role;
}

function memberLine(m: Member): string[] {
  return [String(m.userId), m.name, m.role, m.projects ? m.projects.join(',') : '*', m.joinedAt];
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

export function registerOrganizationCommands(program: Command): void {
  const orgs = program.command('orgs').description('Manage organizations (docs/teams.md).');
  orgs
    .command('list')
    .description('List organizations: id, name, created.')
    .option('--json', 'print a JSON array of {id, name, created_at}')
    .action(async (opts: { json?: boolean }) => {
      await withServices(
        async (s) => {
          const list = await s.organizations.list();
          const rows = list.map((o) => ({ id: o.id, name: o.name, created_at: o.createdAt }));
          if (opts.json) return void process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
          if (rows.length === 0) return void process.stderr.write('No organizations.\n');
          const lines = rows.map((o) => [String(o.id), o.name, o.created_at]);
          process.stdout.write(`${table([['ID', 'NAME', 'CREATED'], ...lines])}\n`);
        },
        { existing: true },
      );
    });
  orgs
    .command('create')
    .description('Create an organization owned by a user.')
    .argument('<name>', "the organization's name")
    .requiredOption('--owner <user>', "its first owner: a user's name or id")
    .action(async (name: string, opts: { owner: string }) => {
      await withServices(
        async (s) => {
          const org = await s.organizations.create(name, opts.owner);
          process.stdout.write(
            `Created organization "${org.name}" (id ${org.id}), owned by ${opts.owner}.\n`,
          );
        },
        { existing: false },
      );
    });

  orgs
    .command('quota')
    .description(
      "Set an organization's quotas (docs/teams.md \"Quotas\"): a whole number from 1, or none to clear; left out: kept.",
    )
    .argument('<org>', "the organization's name or id")
    .option('--reports-per-month <n>', 'reports made a calendar month (UTC), or none')
    .option('--pages-per-crawl <n>', "a crawl's max_pages at most, or none")
    .option('--schedules <n>', 'schedules at most, or none')
    .action(
      async (org: string, opts: { reportsPerMonth?: string; pagesPerCrawl?: string; schedules?: string }) => {
        const value = (flag: string, raw: string | undefined): number | null | undefined => {
          if (raw === undefined) return undefined;
          if (raw === 'none') return null;
          if (!/^[1-9]\d{0,9}$/.test(raw) || Number(raw) > 2_147_483_647)
            throw new CliError(`${flag} must be a whole number from 1, or none; got "${raw}"`);
          return Number(raw);
        };
        const change = {
          reportsPerMonth: value('--reports-per-month', opts.reportsPerMonth),
          pagesPerCrawl: value('--pages-per-crawl', opts.pagesPerCrawl),
          schedules: value('--schedules', opts.schedules),
        };
        await withServices(
          async (s) => {
            const q = await s.organizations.setQuotas(org, change);
            const show = (n: number | null) => (n === null ? 'none' : String(n));
            process.stdout.write(
              `Quotas of ${org}: reports per month ${show(q.reportsPerMonth)}, pages per crawl ${show(q.pagesPerCrawl)}, schedules ${show(q.schedules)}.\n`,
            );
          },
          { existing: true },
        );
      },
    );

  const members = program.command('members').description("Manage an organization's members and their roles.");
  members
    .command('list')
    .description("List an organization's members: user id, name, role, projects, joined.")
    .argument('<org>', "the organization's name or id")
    .option('--json', 'print a JSON array of {user_id, name, role, projects, joined_at}')
    .action(async (org: string, opts: { json?: boolean }) => {
      await withServices(
        async (s) => {
          const list = await s.organizations.membersOf(org);
          if (opts.json) {
            const out = list.map((m) => ({
              user_id: m.userId,
              name: m.name,
              role: m.role,
              projects: m.projects,
              joined_at: m.joinedAt,
            }));
            return void process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
          }
          process.stdout.write(
            `${table([['USER ID', 'NAME', 'ROLE', 'PROJECTS', 'JOINED'], ...list.map(memberLine)])}\n`,
          );
        },
        { existing: true },
      );
    });
  members
    .command('add')
    .description('Add a user to an organization with a role.')
    .argument('<org>', "the organization's name or id")
    .argument('<user>', "the user's name or id")
    .requiredOption('--role <role>', ROLE_LIST)
    .option('--project <name>', 'limit a viewer to this project (repeat for several)', collect)
    .action(async (org: string, user: string, opts: { role: string; project?: string[] }) => {
      const role = roleOf(opts.role);
      await withServices(
        async (s) => {
          const m = await s.organizations.addMember(org, user, role, opts.project ?? null);
          process.stdout.write(
            `Added ${m.name} to ${org} as ${m.role}${m.projects ? ` of ${m.projects.join(', ')}` : ''}.\n`,
          );
        },
        { existing: false },
      );
    });
  members
    .command('set')
    .description("Change a member's role or a viewer's projects (their keys follow at once).")
    .argument('<org>', "the organization's name or id")
    .argument('<user>', "the user's name or id")
    .option('--role <role>', ROLE_LIST)
    .option('--project <name>', 'limit a viewer to this project (repeat for several)', collect)
    .option('--all-projects', "lift a viewer's project limit")
    .action(
      async (
        org: string,
        user: string,
        opts: { role?: string; project?: string[]; allProjects?: boolean },
      ) => {
        const role = opts.role === undefined ? undefined : roleOf(opts.role);
        if (opts.project && opts.allProjects)
          throw new CliError('--project and --all-projects cannot go together');
        const projects = opts.allProjects ? null : opts.project;
        if (role === undefined && projects === undefined)
          throw new CliError('nothing to change: give --role, --project or --all-projects');
        await withServices(
          async (s) => {
            const m = await s.organizations.setMemberOf(org, user, { role, projects });
            process.stdout.write(
              `${m.name} is now ${m.role} of ${org}${m.projects ? ` (projects ${m.projects.join(', ')})` : ''}.\n`,
            );
            await tellRunningServices();
          },
          { existing: true },
        );
      },
    );
  members
    .command('remove')
    .description('Remove a member from an organization (their keys in it stop working).')
    .argument('<org>', "the organization's name or id")
    .argument('<user>', "the user's name or id")
    .action(async (org: string, user: string) => {
      await withServices(
        async (s) => {
          await s.organizations.removeFrom(org, user);
          process.stdout.write(`Removed ${user} from ${org}.\n`);
          await tellRunningServices();
        },
        { existing: true },
      );
    });
}
