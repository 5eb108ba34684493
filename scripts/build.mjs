#!/usr/bin/env node
// Builds dist/ (tsc -p tsconfig.build.json) and stamps it (dist/.built), so that bin/pagegrade.js
// and `npm start` can tell a current build from a stale one without compiling.
//   node scripts/build.mjs             build (npm run build)
//   node scripts/build.mjs --if-stale  build only when a file under src/ is newer than the stamp
//                                      (npm start's prestart, and prepare: `npm ci` builds dist/)
// Without TypeScript installed (`npm ci --omit=dev`) --if-stale says so and leaves dist/ as it
// is: bin/pagegrade.js then runs the sources through tsx, and `npm start` needs a built dist/.
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { distIsCurrent, ROOT, STAMP } from './dist-state.mjs';

const ifStale = process.argv.includes('--if-stale');
if (ifStale && distIsCurrent()) process.exit(0);

let tsc;
try {
  tsc = createRequire(join(ROOT, 'package.json')).resolve('typescript/bin/tsc');
} catch {
  const msg = 'pagegrade: TypeScript is not installed (npm ci --omit=dev?), so dist/ was not built';
  if (ifStale && existsSync(join(ROOT, 'dist/server.js'))) {
    console.error(`${msg}; the existing dist/ is older than src/.`);
    process.exit(0);
  }
  console.error(`${msg}; run npm ci (with dev dependencies) and npm run build.`);
  process.exit(ifStale ? 0 : 1);
}
if (ifStale) console.error('pagegrade: src/ is newer than dist/: building (npm run build)…');
const result = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'inherit' });
if (result.status !== 0) process.exit(result.status ?? 1);
await bundleCli();
writeFileSync(STAMP, `${new Date().toISOString()}\n`);

/**
 * The CLI as one bundle (dist/bundle/index.js, esbuild, ESM with a chunk per lazily loaded
 * command): `pagegrade audit` loads ~40 files instead of ~160 and starts faster
 * (BENCHMARKS.md, CLI start). Packages with native code, worker-thread transports, browser
 * assets or their own files to find stay outside (loaded from node_modules as usual). Without
 * esbuild the bundle is skipped and bin/pagegrade.js runs dist/cli/.
 */
async function bundleCli() {
  const outdir = join(ROOT, 'dist/bundle');
  rmSync(outdir, { recursive: true, force: true });
  let esbuild;
  try {
    esbuild = await import('esbuild');
  } catch {
    console.error('pagegrade: esbuild is not installed, so the CLI is not bundled (dist/cli/ is used).');
    return;
  }
  await esbuild.build({
    entryPoints: [join(ROOT, 'dist/cli/index.js')],
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
    external: [
      'better-sqlite3',
      'pg',
      'pg-*',
      'bullmq',
      'ioredis',
      'playwright-core',
      'tsx',
      'pino',
      'pino-pretty',
      'axe-core',
      'fastify',
      '@fastify/*',
      'prom-client',
    ],
    // CommonJS packages inside the bundle call require()
    banner: { js: "import { createRequire as __pgCreateRequire } from 'node:module'; const require = __pgCreateRequire(import.meta.url);" },
  });
}
