// The analyzer's walls (docs/architecture.md): the audit engine is the ground of the house, so
// nothing in src/analyzer imports from the rooms built on it; its own ground floor (types.ts,
// with the snapshot's and the artifacts' shapes) imports nothing that imports it back; and the
// analyzer, render and crawl rooms have no import circle, type-only imports included.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const IMPORT =
  /(?:^|\n)\s*(?:import|export)\b[^'"`;]*?from\s*['"]([^'"]+)['"]|(?:^|\n)\s*import\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function files(dir: string, withTests = false): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const full = join(d, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name.endsWith('.ts') && !name.endsWith('.d.ts') && (withTests || !name.endsWith('.test.ts')))
        out.push(relative(root, full));
    }
  };
  walk(join(root, dir));
  return out.sort();
}

/** the repository paths of the modules a file imports (relative specifiers only), as .ts paths */
function importsOf(file: string): string[] {
  const out: string[] = [];
  for (const m of readFileSync(join(root, file), 'utf8').matchAll(IMPORT)) {
    const spec = m[1] ?? m[2] ?? m[3]!;
    if (!spec.startsWith('.')) continue;
    let target = relative(root, resolve(dirname(join(root, file)), spec)).replace(/\.js$/, '.ts');
    if (!existsSync(join(root, target)) && existsSync(join(root, target.replace(/\.ts$/, '/index.ts'))))
      target = target.replace(/\.ts$/, '/index.ts');
    out.push(target);
  }
  return out;
}

const ABOVE = ['render', 'crawl', 'services', 'http', 'web', 'pages', 'jobs', 'store'].map(
  (r) => `src/${r}/`,
);

test('nothing in src/analyzer imports from the rooms above it', () => {
  const analyzer = files('src/analyzer', true);
  assert.ok(analyzer.length > 100, `found only ${analyzer.length} analyzer files`);
  const offences: string[] = [];
  for (const f of analyzer)
    for (const t of importsOf(f)) if (ABOVE.some((r) => t.startsWith(r))) offences.push(`${f} imports ${t}`);
  assert.deepEqual(offences, []);
});

test('the ground floor: types.ts imports only the snapshot and the artifacts shapes, and they nothing above', () => {
  const imports = (f: string) => [...new Set(importsOf(f))].sort();
  assert.deepEqual(imports('src/analyzer/types.ts'), [
    'src/analyzer/artifacts/types.ts',
    'src/analyzer/snapshot.ts',
  ]);
  assert.deepEqual(imports('src/analyzer/artifacts/types.ts'), ['src/analyzer/snapshot.ts']);
  assert.deepEqual(imports('src/analyzer/snapshot.ts'), []);
});

/** the import circles of a graph (strongly connected components of more than one module, or a self-import) */
function circles(graph: ReadonlyMap<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(scc.sort());
    }
  };
  for (const m of graph.keys()) if (!index.has(m)) visit(m);
  return found;
}

test('no import circle in the analyzer, render and crawl rooms', () => {
  const modules = [...files('src/analyzer'), ...files('src/render'), ...files('src/crawl')];
  assert.deepEqual(circles(new Map(modules.map((m) => [m, importsOf(m)]))), []);
});

test('the circle finder sees a circle, and the import pattern every form of import', () => {
  // the rule's own test
  const graph = new Map([
    ['types', ['artifacts']],
    ['artifacts', ['rendered']],
    ['rendered', ['types', 'leaf']],
    ['leaf', []],
  ]);
  assert.deepEqual(circles(graph), [['artifacts', 'rendered', 'types']]);
  assert.deepEqual(circles(new Map([['a', ['a']]])), [['a']]);
  const sample =
    "import type { A } from './a.js';\nexport * from '../b.js';\nimport './c.js';\nawait import('./d.js');";
  assert.deepEqual(
    [...sample.matchAll(IMPORT)].map((m) => m[1] ?? m[2] ?? m[3]),
    ['./a.js', '../b.js', './c.js', './d.js'],
  );
});
