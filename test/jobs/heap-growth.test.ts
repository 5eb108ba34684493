// PAGEGRADE_WORKER_HEAP_GROWTH and PAGEGRADE_API_HEAP_GROWTH (src/jobs/heap.ts): read from the
// environment, and set on V8 when the process starts (test/api/server.test.ts) and the workers
// start — a process that keeps ~60 MB and makes garbage that lives long enough to be promoted
// (as a batch's end does) peaks far lower with it than with V8's own growth.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ConfigError, configFromEnv } from '../../src/config.js';

for (const [variable, field] of [
  ['PAGEGRADE_API_HEAP_GROWTH', 'apiHeapGrowth'],
  ['PAGEGRADE_WORKER_HEAP_GROWTH', 'workerHeapGrowth'],
] as const) {
  test(`${variable}: 20 by default, 0 for V8 own, at most 300`, () => {
    assert.equal(configFromEnv({})[field], 20);
    assert.equal(configFromEnv({ [variable]: '0' })[field], 0);
    assert.equal(configFromEnv({ [variable]: '50' })[field], 50);
    assert.throws(
      () => configFromEnv({ [variable]: '301' }),
      (err: unknown) => err instanceof ConfigError && err.variable === variable,
    );
  });
}

const heapModule = fileURLToPath(new URL('../../src/jobs/heap.ts', import.meta.url));
// the child: the setting, then 60 MB kept and 600 MB of garbage made in batches that each live
// through a few others (promoted to the old generation); it prints the heap's peak in MB
const child = `
const { setHeapGrowth } = await import(${JSON.stringify(heapModule)});
setHeapGrowth(Number(process.argv[1]));
const kept = Array.from({ length: 600_000 }, (_, i) => ({ i, s: 'kept ' + i }));
let peak = 0;
const recent = [];
for (let round = 0; round < 300; round++) {
  recent.push(Array.from({ length: 20_000 }, (_, i) => ({ round, i, s: 'garbage ' + i })));
  if (recent.length > 4) recent.shift();
  peak = Math.max(peak, process.memoryUsage().heapUsed);
}
console.log(Math.round(peak / 1048576), kept.length);
`;
const peakMb = (growth: number) =>
  Number(
    execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', child, String(growth)], {
      encoding: 'utf8',
    }).split(' ')[0],
  );

test('setHeapGrowth: the heap collected at that growth (a lower peak than V8 own growth)', () => {
  const own = peakMb(0);
  const capped = peakMb(20);
  console.log(`heap peak: V8's own growth ${own} MB, 20 % growth ${capped} MB`);
  assert.ok(capped < own * 0.8, `20 %: ${capped} MB, V8's own: ${own} MB`);
});
