// Loaded by preload.mjs into every test process. typebox and kysely are ES module packages of
// many small files (683 and 262 of them for the app): through tsx's off-thread loader hooks
// each file costs a resolve and a load round trip, about a second of CPU per test process that
// loads the app — a sizeable share of the whole suite's CPU on 2 cores. Here each package is
// one esbuild bundle instead (the same code, its shared parts in common chunks, so every entry
// point — `typebox`, `typebox/value`, … — sees the same classes and symbols), built once into
// node_modules/.cache/pagegrade-test-deps/<versions>/ and then loaded as a handful of files.
// Every export of the two packages is mapped, so no importer can get a second copy. Only the
// test processes use it: the service processes the tests start, and production, load the
// packages as installed. PAGEGRADE_TEST_BUNDLE_DEPS=0 turns it off (also without esbuild).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { register } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PACKAGES = ['typebox', 'kysely'];

/** `typebox/value` → its entry's name in the bundle directory (`typebox~value`) */
const entryName = (specifier) => specifier.replaceAll('/', '~');

function packageJson(name) {
  const file = join(ROOT, 'node_modules', name, 'package.json');
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null;
}

/** Every specifier a package exports as an ES module (`kysely`, `kysely/helpers/postgres`, …). */
function specifiers(name, pkg) {
  const map = pkg.exports;
  const keys =
    map && typeof map === 'object' && Object.keys(map).every((k) => k.startsWith('.'))
      ? Object.keys(map)
      : ['.'];
  return keys
    .filter((k) => !k.includes('*') && !k.endsWith('.json'))
    .map((k) => (k === '.' ? name : `${name}/${k.slice(2)}`));
}

async function bundle() {
  const pkgs = PACKAGES.map((name) => [name, packageJson(name)]);
  const esbuild = packageJson('esbuild');
  if (!esbuild || pkgs.some(([, pkg]) => !pkg)) return null;
  const all = pkgs.flatMap(([name, pkg]) => specifiers(name, pkg));
  const key = createHash('sha256')
    .update(JSON.stringify([esbuild.version, pkgs.map(([n, p]) => `${n}@${p.version}`), all]))
    .digest('hex')
    .slice(0, 16);
  const cache = join(ROOT, 'node_modules/.cache/pagegrade-test-deps');
  const dir = join(cache, key);
  if (!existsSync(join(dir, 'done'))) {
    // several test processes may start at once: each builds apart, the first rename wins
    const tmp = join(cache, `${key}.${process.pid}.tmp`);
    mkdirSync(tmp, { recursive: true });
    const { build } = await import('esbuild');
    await build({
      absWorkingDir: ROOT,
      entryPoints: Object.fromEntries(all.map((s) => [entryName(s), s])),
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      outdir: tmp,
      outExtension: { '.js': '.mjs' },
      logLevel: 'error',
    });
    writeFileSync(join(tmp, 'done'), '');
    try {
      renameSync(tmp, dir);
    } catch {
      rmSync(tmp, { recursive: true, force: true }); // another process was first
    }
  }
  return Object.fromEntries(all.map((s) => [s, pathToFileURL(join(dir, `${entryName(s)}.mjs`)).href]));
}

if (process.env.PAGEGRADE_TEST_BUNDLE_DEPS !== '0') {
  const map = await bundle().catch((err) => {
    console.error(
      `# test/helpers/bundled-deps.mjs: not bundled (${err.message}); packages load as installed`,
    );
    return null;
  });
  if (map) {
    // registered after tsx's hooks, so it is asked first; anything else goes on to tsx
    register(
      `data:text/javascript,${encodeURIComponent(`
        const map = ${JSON.stringify(map)};
        export async function resolve(specifier, context, next) {
          const url = map[specifier];
          return url ? { url, format: 'module', shortCircuit: true } : next(specifier, context);
        }`)}`,
    );
  }
}
