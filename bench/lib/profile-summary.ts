// Where a V8 CPU profile's time went (node --cpu-prof): self time by function, and by area of
// the program (the analyzer's parse, the checks, the store, the job engine, SQLite, undici, GC).
// Used by bench/crawl-peers.ts --cpu-prof; on its own:
//
//   npx tsx bench/lib/profile-summary.ts FILE.cpuprofile [--top 25] [--per N]
//
// `--per N` also divides the busy time by N (e.g. pages) to print the CPU a unit.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/** The area of a function, from its file: the rooms of src/ (as built in dist/), the packages, V8's own entries. */
function areaOf(url: string, name: string): string {
  if (name === '(garbage collector)') return 'garbage collection';
  if (name === '(idle)') return 'idle';
  if (name === '(program)') return 'V8 and native (program)';
  const m = /\/(?:dist|src)\/([a-z-]+)\/(?:([a-z-]+)\/)?/.exec(url);
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return `package ${pkg[1]}`;
  if (m) {
    if (m[1] === 'analyzer' && m[2] === 'checks') return 'analyzer: checks';
    if (m[1] === 'analyzer' && m[2] === 'artifacts') return 'analyzer: artifacts (parse)';
    if (m[1] === 'analyzer' && m[2] === 'fetch') return 'analyzer: fetch';
    return m[1] === 'analyzer' ? 'analyzer: other' : m[1]!;
  }
  if (url.startsWith('node:') || url === '') return name === '' ? 'native' : `node internals`;
  return 'other';
}

export function summarise(file: string, top = 25, per = 0): string {
  const p = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  for (let i = 0; i < p.samples.length; i++) {
    const id = p.samples[i]!;
    self.set(id, (self.get(id) ?? 0) + (p.timeDeltas[i] ?? 0));
  }
  const fns = new Map<string, { ms: number; area: string }>();
  const areas = new Map<string, number>();
  let busy = 0;
  for (const [id, us] of self) {
    const n = byId.get(id)!;
    const { functionName, url, lineNumber } = n.callFrame;
    const name = functionName || '(anonymous)';
    const area = areaOf(url, functionName);
    if (area !== 'idle') busy += us;
    const where = url ? `${url.replace(/^.*\/(dist|src|node_modules)\//, '$1/')}:${lineNumber + 1}` : '';
    const key = `${name}\u0000${where}`;
    const f = fns.get(key) ?? { ms: 0, area };
    f.ms += us / 1000;
    fns.set(key, f);
    areas.set(area, (areas.get(area) ?? 0) + us / 1000);
  }
  const busyMs = busy / 1000;
  const pct = (ms: number) => `${((ms / busyMs) * 100).toFixed(1)} %`;
  const lines: string[] = [];
  lines.push(
    `busy ${(busyMs / 1000).toFixed(2)} s of ${((p.endTime - p.startTime) / 1e6).toFixed(2)} s profiled${per ? `; ${(busyMs / per).toFixed(2)} ms a unit over ${per}` : ''}`,
  );
  lines.push('', '| area | self time | share of busy |', '|---|---:|---:|');
  for (const [area, ms] of [...areas].filter(([a]) => a !== 'idle').sort((a, b) => b[1] - a[1]))
    lines.push(`| ${area} | ${ms.toFixed(0)} ms | ${pct(ms)} |`);
  lines.push('', '| function | where | self time | share of busy |', '|---|---|---:|---:|');
  for (const [key, f] of [...fns]
    .filter(([, f]) => f.area !== 'idle')
    .sort((a, b) => b[1].ms - a[1].ms)
    .slice(0, top)) {
    const i = key.indexOf('\u0000');
    lines.push(
      `| \`${key.slice(0, i)}\` | ${key.slice(i + 1) || f.area} | ${f.ms.toFixed(0)} ms | ${pct(f.ms)} |`,
    );
  }
  return lines.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const flag = (name: string, fallback: number) => {
    const i = args.indexOf(name);
    return i === -1 ? fallback : Number(args[i + 1]);
  };
  console.log(summarise(args[0]!, flag('--top', 25), flag('--per', 0)));
}
