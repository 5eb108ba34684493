// Chromium's processes under this one, from /proc: what the tests and benchmarks count, and
// what the renderer kills after a crash or at close.
import { readFileSync, readdirSync } from 'node:fs';

/** Every process under `pid` (children, grandchildren…), from /proc. */
export function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  let entries: string[] = [];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(name));
      children.set(ppid, list);
    } catch {
      // gone meanwhile
    }
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const c of children.get(p) ?? []) {
      out.push(c);
      walk(c);
    }
  };
  walk(pid);
  return out;
}

/** The process command (comm) of a pid, or null. */
function comm(pid: number): string | null {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return null;
  }
}

/** Chromium processes started by this process (any depth). */
export function chromiumProcesses(root = process.pid): number[] {
  return descendants(root).filter((p) => {
    const c = comm(p);
    return c !== null && /chrom/i.test(c);
  });
}

/** SIGKILLs every Chromium process under this process; returns how many. */
export function killChromium(): number {
  let n = 0;
  for (const pid of chromiumProcesses()) {
    try {
      process.kill(pid, 'SIGKILL');
      n++;
    } catch {
      // already gone
    }
  }
  return n;
}
