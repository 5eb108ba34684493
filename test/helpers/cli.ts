// Runs the `pagegrade` command as a real process, as a user runs it: the compiled dist/ when it
// is a current build of src/ (as after `npm ci`, which builds it — so CI spawns plain node),
// else the sources through tsx (bin/pagegrade.js decides; PAGEGRADE_FROM_SOURCE=1 in `env`
// forces the sources).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const { distIsCurrent } = (await import('../../scripts/dist-state.cjs')) as { distIsCurrent(): boolean };
const bin = fileURLToPath(new URL('../../bin/pagegrade.js', import.meta.url));

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * `nodeArgs`: options for node itself, before the script (e.g. `--import` a module-load
 * recorder); `cwd`: the working directory (default: the test's).
 */
export function runCli(
  args: string[],
  env: Record<string, string> = {},
  { nodeArgs = [], cwd }: { nodeArgs?: string[]; cwd?: string } = {},
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, bin, ...args], {
      ...(cwd !== undefined ? { cwd } : {}),
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * node's arguments to run the service (`npm start`'s entry): the compiled dist/server.js when
 * dist/ is a current build of src/ (as after `npm ci`), else src/server.ts through tsx. Run
 * with the repository root as the working directory.
 */
export function serverArgs(): string[] {
  return distIsCurrent() ? ['dist/server.js'] : ['--import', 'tsx', 'src/server.ts'];
}
