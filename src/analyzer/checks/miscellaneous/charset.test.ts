import { test } from 'node:test';
import assert from 'node:assert/strict';
import check from './charset.js';
import { runOn } from '../../../../test/helpers/checks.js';

const bare = '<!DOCTYPE html><html lang="en"><head><title>x</title></head><body>x</body></html>';

test('charset: passes with a header charset or a meta charset', () => {
  assert.equal(runOn(check, bare).value, 'utf-8');
  const r = runOn(check, '<meta charset="UTF-8"><title>x</title>', {
    headers: { 'content-type': 'text/html' },
  });
  assert.equal(r.passed, true);
  assert.equal(r.value, 'utf-8');
});

test('charset: fails when neither declares one', () => {
  assert.equal(runOn(check, bare, { headers: { 'content-type': 'text/html' } }).passed, false);
});

test('charset: the http-equiv form counts', () => {
  const html = '<meta http-equiv="Content-Type" content="text/html; charset=ISO-8859-1"><title>x</title>';
  assert.equal(runOn(check, html, { headers: { 'content-type': 'text/html' } }).value, 'iso-8859-1');
});
