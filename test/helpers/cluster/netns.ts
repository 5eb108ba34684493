// Hosts for the cluster test (docs/testing.md, "Cluster test"): network namespaces named
// `pgc-<host>`, each with one veth pair whose outer end (`pgc-<host>`, in the root namespace) is
// a port of the bridge `pgc-br` (10.77.0.1/24) and whose inner end is the host's `eth0` with its
// own address. Nothing routes out of 10.77.0.0/24: the hosts reach each other and the test
// process, nothing else. Processes started in a host are tracked by their id and killed at the
// end; `removeAll` removes every `pgc-` namespace and the bridge (a crashed earlier run's too).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const PREFIX = 'pgc-';
const BRIDGE = `${PREFIX}br`;
export const ROOT_ADDRESS = '10.77.0.1';

function ip(...args: string[]): string {
  return execFileSync('ip', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

function tryIp(...args: string[]): void {
  try {
    ip(...args);
  } catch {
    // already gone
  }
}

/** Every `pgc-` namespace (its processes killed by id first) and the bridge: removed. */
export function removeAll(): void {
  const names = ip('netns', 'list')
    .split('\n')
    .map((l) => l.split(' ')[0]!)
    .filter((n) => n.startsWith(PREFIX));
  for (const ns of names) {
    let pids: string[] = [];
    try {
      pids = ip('netns', 'pids', ns).split('\n').filter(Boolean);
    } catch {
      // none
    }
    for (const pid of pids) {
      try {
        process.kill(Number(pid), 'SIGKILL');
      } catch {
        // gone
      }
    }
    tryIp('netns', 'del', ns);
  }
  // a deleted namespace's veth pairs go with it, but the kernel may take its time: the outer ends
  // left in the root namespace are deleted here (each takes its pair with it), the bridge last
  for (const line of ip('-o', 'link').split('\n')) {
    const name = /^\d+: ([^@:]+)/.exec(line)?.[1];
    if (name?.startsWith(PREFIX) && name !== BRIDGE) tryIp('link', 'del', name);
  }
  tryIp('link', 'del', BRIDGE);
}

export interface Host {
  name: string;
  ns: string;
  address: string;
  /** the veth end on the bridge: down = the host is cut off */
  link: string;
}

export function createBridge(): void {
  ip('link', 'add', BRIDGE, 'type', 'bridge');
  ip('addr', 'add', `${ROOT_ADDRESS}/24`, 'dev', BRIDGE);
  ip('link', 'set', BRIDGE, 'up');
}

export function createHost(name: string, address: string): Host {
  const ns = `${PREFIX}${name}`;
  const link = `${PREFIX}${name}`;
  ip('netns', 'add', ns);
  ip('link', 'add', link, 'type', 'veth', 'peer', 'name', `${PREFIX}${name}i`);
  ip('link', 'set', `${PREFIX}${name}i`, 'netns', ns);
  ip('-n', ns, 'link', 'set', `${PREFIX}${name}i`, 'name', 'eth0');
  ip('-n', ns, 'addr', 'add', `${address}/24`, 'dev', 'eth0');
  ip('-n', ns, 'link', 'set', 'eth0', 'up');
  ip('-n', ns, 'link', 'set', 'lo', 'up');
  ip('link', 'set', link, 'master', BRIDGE);
  ip('link', 'set', link, 'up');
  return { name, ns, address, link };
}

/** Another address for the host (one machine known by several addresses: several sites). */
export function addAddress(host: Host, address: string): void {
  ip('-n', host.ns, 'addr', 'add', `${address}/24`, 'dev', 'eth0');
}

export function setLink(host: Host, up: boolean): void {
  ip('link', 'set', host.link, up ? 'up' : 'down');
}

export interface HostProcess {
  host: Host;
  label: string;
  child: ChildProcess;
  logFile: string;
  output(): string;
  exited: Promise<number | null>;
  alive(): boolean;
  kill(signal?: NodeJS.Signals): void;
  /** SIGTERM, then SIGKILL after graceMs */
  stop(graceMs?: number): Promise<void>;
}

const started = new Set<HostProcess>();

/** Runs `command` inside the host (ip netns exec execs it: the child's pid is the program's). */
export function runIn(
  host: Host,
  label: string,
  command: string[],
  options: { env?: Record<string, string>; dir: string; user?: string },
): HostProcess {
  const logFile = join(options.dir, `${label}.log`);
  const out = createWriteStream(logFile);
  // setpriv execs the program as the user (runuser would stay its parent and keep the signals)
  const asUser = options.user
    ? ['setpriv', `--reuid=${options.user}`, `--regid=${options.user}`, '--init-groups', '--']
    : [];
  const argv = ['netns', 'exec', host.ns, ...asUser, ...command];
  const child = spawn('ip', argv, {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/root', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    cwd: process.cwd(),
  });
  child.stdout!.pipe(out, { end: false });
  child.stderr!.pipe(out, { end: false });
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code, signal) => {
      started.delete(proc);
      resolve(code ?? (signal ? 128 : null));
    }),
  );
  const proc: HostProcess = {
    host,
    label,
    child,
    logFile,
    exited,
    output: () => {
      try {
        return readFileSync(logFile, 'utf8');
      } catch {
        return '';
      }
    },
    alive: () => child.exitCode === null && child.signalCode === null,
    kill: (signal = 'SIGKILL') => {
      if (proc.alive()) child.kill(signal);
    },
    async stop(graceMs = 5000) {
      if (!proc.alive()) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => proc.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
  started.add(proc);
  return proc;
}

/** Every process still running that runIn started: SIGKILL by its id. */
export function killStarted(): void {
  for (const p of started) p.kill('SIGKILL');
}

/** Runs a command inside the host to its end (setup steps: initdb, pg_ctl). */
export function execIn(host: Host, command: string[], user?: string): string {
  return execFileSync(
    'ip',
    ['netns', 'exec', host.ns, ...(user ? ['runuser', '-u', user, '--'] : []), ...command],
    {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
}

/** Waits until a TCP connection from inside `host` to address:port succeeds; the ms it took. */
export async function reachableFrom(
  host: Host,
  address: string,
  port: number,
  timeoutMs: number,
): Promise<number> {
  const started = Date.now();
  const probe = `require('net').connect(${port}, '${address}').on('connect', () => process.exit(0)).on('error', () => process.exit(1))`;
  for (;;) {
    try {
      execIn(host, [process.execPath, '-e', probe]);
      return Date.now() - started;
    } catch {
      if (Date.now() - started > timeoutMs)
        throw new Error(`${host.name} cannot reach ${address}:${port} after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}
