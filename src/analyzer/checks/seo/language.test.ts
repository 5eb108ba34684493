import { test } from 'node:test';
import assert from 'node:assert/strict';
import check from './language.js';
import { page, runOn } from '../../../../test/helpers/checks.js';

test('language: passes with <html lang>', () => {
  assert.equal(runOn(check, page('', '<title>x</title>', 'pt-BR')).value, 'pt-BR');
  assert.equal(runOn(check, page('', '<title>x</title>', 'zh-Hans-TW')).passed, true);
});

test('language: fails without lang', () => {
  assert.equal(runOn(check, '<!DOCTYPE html><html><body>x</body></html>').passed, false);
});

test('language: empty or malformed lang fails', () => {
  assert.equal(runOn(check, page('', '', '')).passed, false);
  assert.equal(runOn(check, page('', '', 'english language')).passed, false);
});
