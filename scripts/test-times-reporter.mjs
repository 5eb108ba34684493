// A node:test reporter for scripts/run-tests.mjs, beside the spec reporter: each test file's
// time and the test counts, as one JSON line at the end. Cheap: it only reads the events the
// runner sends anyway. A file's time is the runner's own figure for the file's process (Node 20
// reports each file as a test of its own); where a runner does not, the span between the first
// and the last event naming the file (an event names the file that declared the test, so a
// suite declared by a helper names the helper: run-tests.mjs keeps only the files it ran).
import { performance } from 'node:perf_hooks';

export default async function* testTimes(source) {
  /** @type {Map<string, { first: number; last: number; ms: number | null }>} */
  const files = new Map();
  const counts = { passed: 0, failed: 0, skipped: 0, todo: 0 };
  for await (const event of source) {
    const d = event.data ?? {};
    if (typeof d.file === 'string') {
      const now = performance.now();
      const f = files.get(d.file) ?? { first: now, last: now, ms: null };
      f.last = now;
      files.set(d.file, f);
      const isFile = d.name === d.file && d.nesting === 0;
      if (event.type === 'test:complete' && isFile) f.ms = d.details?.duration_ms ?? null;
      if (event.type === 'test:pass' || event.type === 'test:fail') {
        // a file's own result (Node 20) is not a test, unless the file failed to load
        if (isFile && event.type === 'test:pass') continue;
        // a suite is not a test, unless it was skipped as a whole
        if (d.details?.type === 'suite' && !d.skip && event.type === 'test:pass') continue;
        if (d.skip) counts.skipped++;
        else if (d.todo) counts.todo++;
        else if (event.type === 'test:pass') counts.passed++;
        else if (d.details?.type !== 'suite') counts.failed++;
      }
    }
  }
  const times = [...files].map(([file, f]) => ({ file, ms: Math.round(f.ms ?? f.last - f.first) }));
  yield `${JSON.stringify({ files: times, counts })}\n`;
}
