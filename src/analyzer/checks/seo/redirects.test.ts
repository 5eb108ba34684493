import { test } from 'node:test';
import assert from 'node:assert/strict';
import check from './redirects.js';
import { page, runOn } from '../../../../test/helpers/checks.js';

test('redirects: no redirect passes', () => {
  const r = runOn(check, page('x'));
  assert.equal(r.passed, true);
  assert.equal(r.value, 0);
});

test('redirects: one http→https hop passes and is reported', () => {
  const r = runOn(check, page('x'), {
    url: 'http://example.com/',
    finalUrl: 'https://example.com/',
    redirects: [{ url: 'http://example.com/', status: 301 }],
  });
  assert.equal(r.passed, true);
  assert.match(r.message, /http → https upgrade/);
  assert.equal(r.details?.type, 'table');
});

test('redirects: a chain over the limit fails, with each hop in the details', () => {
  const r = runOn(check, page('x'), {
    url: 'http://example.com/a',
    finalUrl: 'https://www.example.com/a',
    redirects: [
      { url: 'http://example.com/a', status: 301 },
      { url: 'https://example.com/a', status: 302 },
    ],
  });
  assert.equal(r.passed, false);
  assert.equal(r.value, 2);
  assert.match(r.message, /2 redirects \(301 → 302\).*at most 1 allowed/);
  assert.ok(r.details?.type === 'table' && r.details.rows.length === 2);
  // the limit is configurable
  assert.equal(
    runOn(
      check,
      page('x'),
      {
        url: 'http://example.com/a',
        finalUrl: 'https://www.example.com/a',
        redirects: [
          { url: 'http://example.com/a', status: 301 },
          { url: 'https://example.com/a', status: 301 },
        ],
      },
      { 'redirects.max_hops': 2 },
    ).passed,
    true,
  );
});

test('redirects: a single https→http downgrade fails', () => {
  const r = runOn(check, page('x'), {
    url: 'https://example.com/',
    finalUrl: 'http://example.com/',
    redirects: [{ url: 'https://example.com/', status: 301 }],
  });
  assert.equal(r.passed, false);
  assert.match(r.message, /from https to http/);
});
