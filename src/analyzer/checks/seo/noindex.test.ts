import { test } from 'node:test';
import assert from 'node:assert/strict';
import check from './noindex.js';
import { headerBlocks } from '../../artifacts/indexing.js';
import { page, runOn } from '../../../../test/helpers/checks.js';

test('noindex: passes without directives, or with harmless ones', () => {
  assert.equal(runOn(check, page('')).passed, true);
  assert.equal(runOn(check, page('', '<meta name="robots" content="index, follow">')).passed, true);
});

test('noindex: fails on a robots meta tag, case-insensitively', () => {
  const r = runOn(check, page('', '<meta name="RoBots" content="nofollow, NOINDEX, all">'));
  assert.equal(r.passed, false);
  assert.equal(runOn(check, page('', '<meta name="googlebot" content="none">')).passed, false);
});

test('noindex: X-Robots-Tag counts unless scoped to another crawler', () => {
  const headers = (v: string) => ({ 'content-type': 'text/html', 'x-robots-tag': v });
  assert.equal(runOn(check, page(''), { headers: headers('noindex') }).passed, false);
  assert.equal(runOn(check, page(''), { headers: headers('googlebot: noindex, nofollow') }).passed, false);
  assert.equal(runOn(check, page(''), { headers: headers('otherbot: noindex') }).passed, true);
  assert.equal(headerBlocks('unavailable_after: 25 Jun 2030 15:00:00 PST'), false);
  assert.equal(runOn(check, page('', '<meta name="otherbot" content="noindex">')).passed, true);
});
