// `pagegrade users create --email --password-stdin`: the person's email (checked, lower-case)
// and their password's hash (scrypt with the people's parameters), read before the database opens.
import { CliError } from './exit-codes.js';

/** All of standard input (a password piped in), without its final line break. */
async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

/** `users create`'s sign-in options: the email (checked) and the password's hash. */
export async function signInOptions(opts: {
  email?: string;
  passwordStdin?: boolean;
}): Promise<{ email?: string; passwordHash?: string }> {
  const { normalEmail, checkNewPassword, hashPersonPassword } =
    await import('../services/signin/signin.service.js');
  const out: { email?: string; passwordHash?: string } = {};
  if (opts.email !== undefined) {
    const email = normalEmail(opts.email);
    if (email === null)
      throw new CliError(`--email must be an email address (name@example.com): ${opts.email}`);
    out.email = email;
  }
  if (opts.passwordStdin) {
    if (out.email === undefined)
      throw new CliError('--password-stdin needs --email (people sign in with it)');
    const password = await readStdin();
    try {
      checkNewPassword(password);
    } catch (err) {
      throw new CliError((err as Error).message.replace(/\.$/, ''));
    }
    out.passwordHash = await hashPersonPassword(password);
  }
  return out;
}

