// Runs the `pagegrade` command as a real process (from the sources, through tsx).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../../bin/pagegrade.js', import.meta.url));

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `nodeArgs`: options for node itself, before the script (e.g. `--import` a module-load recorder). */
export function runCli(
  args: string[],
  env: Record<string, string> = {},
  { nodeArgs = [] }: { nodeArgs?: string[] } = {},
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, bin, ...args], {
      env: { ...process.env, PAGEGRADE_FROM_SOURCE: '1', ...env },
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
