// The extraction worker's time bound (src/services/batches/extract-pool.ts; docs/sites.md "Custom
// extraction", "The time bound"), in a real worker thread: a pathological XPath on a big page
// (`//*[count(//*) > 0]`: count(//*) again for each of 20,000 elements, minutes of work) is
// stopped at its time, its value null with an error naming it, and the page's other extractors
// — before and after it — still get their values from a new worker; pages sent at once wait in
// line and each gets its own; a process that used the worker ends by itself (it is unref'd).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, test } from 'node:test';
import { extractBounded, extractionWorkersStarted } from '../../src/services/batches/extract-pool.js';
import { ExtractionPage, keptValue, type Extracted, type Extractor } from '../../src/crawl/extract.js';

const BIG = `<!doctype html><html><head><title>Big</title><script>var gtm = 'GTM-BIG1';</script></head><body><h1>Many items</h1>${'<p class="i">item</p>'.repeat(20_000)}<h2>Last</h2></body></html>`;
const SMALL = `<!doctype html><html><head><title>Small</title><script>var gtm = 'GTM-SMALL';</script></head><body><h1>Few items</h1><p class="i">one</p><h2>Last</h2></body></html>`;

const EXTRACTORS: Extractor[] = [
  { name: 'h1', css: 'h1' },
  { name: 'slow', xpath: '//*[count(//*) > 0]' },
  { name: 'title', xpath: '//title' },
  { name: 'gtm', regex: "GTM-([A-Z0-9]+)'" },
  { name: 'h2', css: 'h2', all: true },
];
const LIMIT_MS = 1000;

/** the page's values in this thread, without the worker: the same extractors on the same DOM */
function inThread(html: string, extractors: readonly Extractor[]): Extracted {
  const page = new ExtractionPage(html);
  const out: Extracted = {};
  for (const e of extractors) out[e.name] = keptValue(e, page.values(e));
  return out;
}

describe('custom extraction in the worker, with a time bound', () => {
  test('a pathological XPath on a big page is stopped at its time; the other extractors get their values', async () => {
    // a first page starts the worker (its modules load outside any extractor's time)
    const small = await extractBounded(SMALL, EXTRACTORS, LIMIT_MS);
    assert.deepEqual(small.errors, {});
    // on a small page the same XPath is quick: the first element's text
    assert.deepEqual(small.values, { ...inThread(SMALL, EXTRACTORS) });
    assert.equal(small.values['h1'], 'Few items');

    const before = extractionWorkersStarted();
    const started = performance.now();
    const big = await extractBounded(BIG, EXTRACTORS, LIMIT_MS);
    const ms = performance.now() - started;
    assert.deepEqual(big.values, { h1: 'Many items', slow: null, title: 'Big', gtm: 'BIG1', h2: ['Last'] });
    assert.deepEqual(Object.keys(big.errors), ['slow']);
    assert.match(
      big.errors['slow']!,
      /^Timed out: the xpath extractor "slow" ran longer than 1 s on this page \(PAGEGRADE_EXTRACT_TIMEOUT_MS\) and was stopped\.$/,
    );
    // its time, then a new worker for the rest (loading its modules, building the DOM again)
    assert.ok(ms >= LIMIT_MS, `${ms} ms`);
    assert.ok(ms < LIMIT_MS + 20_000, `the page took ${Math.round(ms)} ms`);
    assert.equal(extractionWorkersStarted(), before + 1, 'the stopped worker was replaced once');

    // the new worker serves the next page
    const again = await extractBounded(SMALL, EXTRACTORS, LIMIT_MS);
    assert.deepEqual(again.values, small.values);
    assert.equal(extractionWorkersStarted(), before + 1);
  });

  test('the slow extractor last, and first: the others keep their values either way', async () => {
    const last = await extractBounded(BIG, [EXTRACTORS[0]!, EXTRACTORS[1]!], LIMIT_MS);
    assert.deepEqual(last.values, { h1: 'Many items', slow: null });
    const first = await extractBounded(BIG, [EXTRACTORS[1]!, EXTRACTORS[3]!], LIMIT_MS);
    assert.deepEqual(first.values, { slow: null, gtm: 'BIG1' });
    assert.deepEqual(Object.keys(first.errors), ['slow']);
  });

  test('pages sent at once wait in line: each gets its own values', async () => {
    const [a, b, c] = await Promise.all([
      extractBounded(BIG, EXTRACTORS, LIMIT_MS),
      extractBounded(SMALL, EXTRACTORS, LIMIT_MS),
      extractBounded('<p>no title</p>', [{ name: 'title', xpath: '//title' }], LIMIT_MS),
    ]);
    assert.equal(a.values['h1'], 'Many items');
    assert.equal(a.values['slow'], null);
    assert.deepEqual(b.errors, {}, 'the small page waited: its time started when the worker took it');
    assert.equal(b.values['h1'], 'Few items');
    assert.deepEqual(c, { values: { title: null }, errors: {} });
  });

  test('no extractors: nothing is sent to a worker', async () => {
    const n = extractionWorkersStarted();
    assert.deepEqual(await extractBounded(BIG, [], LIMIT_MS), { values: {}, errors: {} });
    assert.equal(extractionWorkersStarted(), n);
  });

  test('a process that used the worker ends by itself (the idle worker is unref’d)', async () => {
    const module = new URL('../../src/services/batches/extract-pool.ts', import.meta.url).href;
    const code = `const { extractBounded } = await import(${JSON.stringify(module)});
const r = await extractBounded('<h1>Hi</h1>', [{ name: 'h1', xpath: '//h1' }], 5000);
console.log(JSON.stringify(r));`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
    clearTimeout(timer);
    assert.equal(status, 0, `the process did not end by itself: ${err}`);
    assert.deepEqual(JSON.parse(out), { values: { h1: 'Hi' }, errors: {} });
  });
});
