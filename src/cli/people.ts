// People's sign-in from the command line (docs/teams.md "Signing in"): `users create --email
// --password-stdin`, `users reset-link`, `users admin`, `users disable|enable`, `users reset-2fa`,
// and the instance's sign-up mode (`pagegrade instance signup [MODE]`). A reset link is printed
// to the one who runs the command, never logged.
import type { Command } from 'commander';
import { withServices } from './accounts.js';
import { CliError } from './exit-codes.js';

export function registerPeopleCommands(program: Command): void {
  const users = program.commands.find((c) => c.name() === 'users');
  if (!users) throw new Error('the users command is registered first');
  users
    .command('reset-link')
    .description('Print a password reset link for the person with this email (one hour, single use).')
    .argument('<email>', 'their email')
    .action(async (email: string) => {
      await withServices(
        async (s) => {
          const link = await s.signin.resetLink(email, { byAdmin: true });
          process.stdout.write(`Reset link (works once, until ${link.expiresAt}):\n${link.url}\n`);
        },
        { existing: true },
      );
    });
  users
    .command('admin')
    .description('Make a person an instance admin, or not (never the last one).')
    .argument('<user>', 'name, email or id')
    .option('--on', 'make them an admin (the default)')
    .option('--off', 'make them no longer an admin')
    .action(async (user: string, opts: { on?: boolean; off?: boolean }) => {
      if (opts.on && opts.off) throw new CliError('give --on or --off, not both');
      await withServices(
        async (s) => {
          const u = await s.admin.setAdmin(user, !opts.off);
          process.stdout.write(`${u.name} is ${u.isAdmin ? 'now' : 'no longer'} an instance admin.\n`);
        },
        { existing: true },
      );
    });
  for (const [name, disabled] of [
    ['disable', true],
    ['enable', false],
  ] as const)
    users
      .command(name)
      .description(
        disabled
          ? 'Disable a person: their sessions end and their API keys stop at once.'
          : 'Enable a disabled person again.',
      )
      .argument('<user>', 'name, email or id')
      .action(async (user: string) => {
        await withServices(
          async (s) => {
            const u = await s.admin.setDisabled(user, disabled);
            process.stdout.write(`${u.name} is ${u.disabledAt ? 'disabled' : 'enabled'}.\n`);
          },
          { existing: true },
        );
      });
  users
    .command('reset-2fa')
    .description("Turn a person's second factor off (they can set it up again).")
    .argument('<user>', 'name, email or id')
    .action(async (user: string) => {
      await withServices(
        async (s) => {
          const u = await s.admin.resetSecondFactor(user);
          process.stdout.write(`${u.name}'s second factor is off.\n`);
        },
        { existing: true },
      );
    });

  const instance = program.command('instance').description("The instance's settings (the instance admin's).");
  instance
    .command('signup')
    .description(
      'Show or set who may create an account: closed (default), invite (invitations only) or open.',
    )
    .argument('[mode]', 'closed, invite or open')
    .action(async (mode: string | undefined) => {
      await withServices(
        async (s) => {
          if (mode === undefined) return void process.stdout.write(`${await s.signin.signupMode()}\n`);
          const set = await s.signin.setSignupMode(mode);
          process.stdout.write(`Sign-up is now ${set}.\n`);
        },
        { existing: false },
      );
    });
}
