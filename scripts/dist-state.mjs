// Is dist/ a current build of src/? True when dist/.built (written by scripts/build.mjs after a
// successful tsc) is at least as new as every file under src/. A clone without src/ (a packed
// install) counts as current once built. Plain JavaScript: bin/pagegrade.js reads it at every
// start, before anything is compiled.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const STAMP = join(ROOT, 'dist/.built');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    const t = entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs;
    if (t > newest) newest = t;
  }
  return newest;
}

export function distIsCurrent() {
  if (!existsSync(STAMP)) return false;
  const src = join(ROOT, 'src');
  return !existsSync(src) || statSync(STAMP).mtimeMs >= newestMtime(src);
}
