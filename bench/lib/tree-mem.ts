// Memory of a process tree, for the benchmarks that compare tools with their browsers
// (bench/render.ts, bench/render-crawl.ts): RSS and Pss (kB) summed over roots and every process
// under them, read from /proc/PID/smaps_rollup, with the Pss by kind of process (node, or
// Chromium's browser / renderer / gpu-process / utility / zygote).
import { readFileSync } from 'node:fs';

/** What kind of process a pid is: node, or Chromium's browser / renderer / gpu-process / utility / zygote. */
export function kindOf(pid: number): string {
  try {
    // Chromium rewrites its child processes' command lines into one space-separated string
    const cmd = readFileSync(`/proc/${pid}/cmdline`, 'latin1').split(/[\0 ]/);
    // an empty command line: a process on its way out (a closed page's renderer)
    if (!cmd[0]) return 'exiting';
    if (!/chrom/i.test(cmd[0])) return /node/.test(cmd[0]) ? 'node' : cmd[0];
    const type = cmd.find((a) => a.startsWith('--type='))?.slice(7);
    const sub = cmd.find((a) => a.startsWith('--utility-sub-type='))?.slice(19);
    return `chromium ${type ?? 'browser'}${sub ? ` (${sub.replace(/^.*\./, '')})` : ''}`;
  } catch {
    return 'exiting';
  }
}

export interface TreeMem {
  rss: number;
  pss: number;
  /** Pss (kB) and number of processes by kind of process */
  kinds: Map<string, { kb: number; n: number }>;
}

/** RSS and Pss (kB) summed over `roots` and every process under them. */
export function treeMemKb(roots: number[], descendants: (pid: number) => number[]): TreeMem {
  let rss = 0;
  let pss = 0;
  const kinds = new Map<string, { kb: number; n: number }>();
  const seen = new Set<number>();
  for (const r of roots) {
    for (const pid of [r, ...descendants(r)]) {
      if (seen.has(pid)) continue;
      seen.add(pid);
      try {
        const text = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
        const p = Number(/^Pss:\s+(\d+)/m.exec(text)?.[1] ?? 0);
        rss += Number(/^Rss:\s+(\d+)/m.exec(text)?.[1] ?? 0);
        pss += p;
        const k = kindOf(pid);
        const e = kinds.get(k) ?? { kb: 0, n: 0 };
        kinds.set(k, { kb: e.kb + p, n: e.n + 1 });
      } catch {
        // gone meanwhile
      }
    }
  }
  return { rss, pss, kinds };
}
