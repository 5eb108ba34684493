// A measured process's file as plain node runs it (bench/sites.ts and bench/crawl-peers.ts run
// bench/lib/sites-worker.ts so, without the tsx loader, as `npm start` runs): its types stripped
// and the bench/lib files it imports bundled in. The application itself is never bundled: the
// worker imports it at run time from dist/ (SITES_ROOT), and only types from src/ (checked here).
import { buildSync } from 'esbuild';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../../', import.meta.url));

/** Writes `workerTs`, bundled as above, to `outFile` (an .mjs). */
export function writeWorkerScript(workerTs: string, outFile: string): void {
  const out = buildSync({
    entryPoints: [workerTs],
    outfile: outFile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    metafile: true,
    logLevel: 'error',
    absWorkingDir: repo,
  });
  // the metafile names its inputs relative to absWorkingDir
  const fromSrc = Object.keys(out.metafile.inputs).filter((f) => f.startsWith('src/'));
  if (fromSrc.length > 0)
    throw new Error(`${workerTs} would bundle the application's sources: ${fromSrc.join(', ')}`);
}
