import { test } from 'node:test';
import assert from 'node:assert/strict';
import { didYouMean, suggestUrl } from './url.js';

test('suggestUrl: a bare host or host and path → https URL; nothing for what is not host-like', () => {
  assert.equal(suggestUrl('example.com'), 'https://example.com/');
  assert.equal(suggestUrl(' www.Example.com/pricing?a=1 '), 'https://www.example.com/pricing?a=1');
  assert.equal(suggestUrl('//example.com/x'), 'https://example.com/x');
  assert.equal(suggestUrl('localhost:3000/'), 'https://localhost:3000/');
  assert.equal(suggestUrl('ftp://example.com/'), null, 'another scheme is not a typo');
  assert.equal(suggestUrl('hello'), null, 'no dot: not a host');
  assert.equal(suggestUrl('two words.com'), null);
  assert.equal(suggestUrl(''), null);
  assert.equal(didYouMean('example.com'), '; did you mean https://example.com/?');
  assert.equal(didYouMean('nope'), '');
});
