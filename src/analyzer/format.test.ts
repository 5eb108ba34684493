import { test } from 'node:test';
import assert from 'node:assert/strict';
import { countOf, formatBytes, displayCheckValue, formatCount, formatMs } from './format.js';

test('formatBytes: decimal units, three significant digits', () => {
  assert.equal(formatBytes(1_160_848), '1.16 MB');
  assert.equal(formatBytes(0), '0 B');
  assert.equal(formatBytes(999), '999 B');
  assert.equal(formatBytes(1000), '1 kB');
  assert.equal(formatBytes(1500), '1.5 kB');
  assert.equal(formatBytes(12_345), '12.3 kB');
  assert.equal(formatBytes(330_000), '330 kB');
  assert.equal(formatBytes(999_499), '999 kB');
  assert.equal(formatBytes(999_999), '1 MB', 'rounding up moves to the next unit');
  assert.equal(formatBytes(5_242_880), '5.24 MB');
  assert.equal(formatBytes(12_400_000), '12.4 MB');
  assert.equal(formatBytes(2_500_000_000), '2.5 GB');
});

test('formatCount, formatMs, countOf', () => {
  assert.equal(formatCount(1_160_848), '1,160,848');
  // the same text as toLocaleString('en'), without Intl
  for (const n of [
    0,
    -0,
    7,
    999,
    1000,
    -1234,
    1234.5,
    0.12345,
    1e6 + 0.0005,
    123456789.987654,
    2 ** 53,
    1e21,
    NaN,
    Infinity,
  ])
    assert.equal(formatCount(n), n.toLocaleString('en'), String(n));
  assert.equal(formatMs(85.4), '85 ms');
  assert.equal(formatMs(1250), '1.25 s');
  assert.equal(countOf(1, 'image'), '1 image');
  assert.equal(countOf(22, 'image'), '22 images');
  assert.equal(countOf(1500, 'link'), '1,500 links');
});

test('displayCheckValue: units by check, no "0" for a passed count, words for booleans', () => {
  assert.equal(displayCheckValue('page_size', 1_160_848, false), '1.16 MB');
  assert.equal(displayCheckValue('load_time', 2400, false), '2.40 s');
  assert.equal(displayCheckValue('crawlable_anchors', 0, true), undefined);
  assert.equal(displayCheckValue('crawlable_anchors', 3, false), '3');
  assert.equal(displayCheckValue('dom_size', 1834, false), '1,834');
  assert.equal(displayCheckValue('noindex', true, true), 'Yes');
  assert.equal(displayCheckValue('title', 'Hello', true), 'Hello');
  assert.equal(displayCheckValue('title', undefined, true), undefined);
});
