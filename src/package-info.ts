// Pagegrade's own package.json (name and version), found from wherever this code runs: src/
// through tsx, dist/ after tsc, or the CLI bundle (dist/bundle/, one level shallower or deeper
// than the module it came from) — the nearest package.json up from here that is Pagegrade's.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function find(): { name: string; version: string } {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === 'pagegrade') return { name: pkg.name, version: pkg.version ?? '0.0.0' };
    } catch {
      // no package.json here: one level up
    }
    const up = dirname(dir);
    if (up === dir) return { name: 'pagegrade', version: '0.0.0' };
    dir = up;
  }
}

export const PACKAGE = find();
