// The stylesheet and script, read once with a content hash for their URLs: served by the
// pages (src/pages/plugins/assets.ts) and inlined into the PDF (src/web/reports.ts).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type { AssetUrls } from './layout.js';

interface Asset {
  body: string;
  type: string;
  hash: string;
}

export interface Assets {
  /** the hashed URLs the layout links */
  urls: AssetUrls;
  get(name: string): Asset | undefined;
}

/** src/views/assets (tsx) or, from dist/views, the source tree's copy. */
function assetsDir(): URL {
  const here = new URL('assets/', import.meta.url);
  if (existsSync(new URL('pagegrade.css', here))) return here;
  return new URL('../../src/views/assets/', import.meta.url);
}

export function loadAssets(): Assets {
  const dir = assetsDir();
  const files = new Map<string, Asset>();
  for (const [name, type] of [
    ['pagegrade.css', 'text/css; charset=utf-8'],
    ['pagegrade.js', 'text/javascript; charset=utf-8'],
  ] as const) {
    const body = readFileSync(new URL(name, dir), 'utf8');
    files.set(name, { body, type, hash: createHash('sha256').update(body).digest('hex').slice(0, 12) });
  }
  return {
    urls: {
      css: `/assets/pagegrade.css?v=${files.get('pagegrade.css')!.hash}`,
      js: `/assets/pagegrade.js?v=${files.get('pagegrade.js')!.hash}`,
    },
    get: (name) => files.get(name),
  };
}
