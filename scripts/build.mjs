#!/usr/bin/env node
// Builds dist/ (tsc -p tsconfig.build.json) and stamps it (dist/.built), so that bin/pagegrade.js
// and `npm start` can tell a current build from a stale one without compiling.
//   node scripts/build.mjs             build (npm run build)
//   node scripts/build.mjs --if-stale  build only when a file under src/ is newer than the stamp
//                                      (npm start's prestart, and prepare: `npm ci` builds dist/)
// Without TypeScript installed (`npm ci --omit=dev`) --if-stale says so and leaves dist/ as it
// is: bin/pagegrade.js then runs the sources through tsx, and `npm start` needs a built dist/.
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
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
writeFileSync(STAMP, `${new Date().toISOString()}\n`);
