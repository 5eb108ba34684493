import { test } from 'node:test';
import assert from 'node:assert/strict';
import check from './doctype.js';
import { runOn } from '../test-helpers.js';

test('doctype: <!DOCTYPE html> passes (any case, legacy-compat too)', () => {
  const r = runOn(check, '<!DOCTYPE html><html><head><title>t</title></head><body>x</body></html>');
  assert.equal(r.passed, true);
  assert.equal(r.value, '<!DOCTYPE html>');
  assert.equal(runOn(check, '<!doctype HTML><p>x').passed, true);
  assert.equal(runOn(check, '<!DOCTYPE html SYSTEM "about:legacy-compat"><p>x').passed, true);
});

test('doctype: missing or quirks-mode doctypes fail', () => {
  const none = runOn(check, '<html><head><title>t</title></head><body>x</body></html>');
  assert.equal(none.passed, false);
  assert.match(none.message, /no <!DOCTYPE> declaration.*quirks mode/);
  const q = runOn(check, '<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN"><p>x');
  assert.equal(q.passed, false);
  assert.match(q.message, /puts browsers in quirks mode/);
  assert.match(
    runOn(check, '<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 3.2 Final//EN"><p>x').message,
    /quirks mode/,
  );
});

test('doctype: edge — limited-quirks and legacy strict doctypes, and a late doctype, fail', () => {
  const xhtml = runOn(
    check,
    '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd"><p>x',
  );
  assert.match(xhtml.message, /limited-quirks/);
  const strict = runOn(
    check,
    '<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01//EN" "http://www.w3.org/TR/html4/strict.dtd"><p>x',
  );
  assert.equal(strict.passed, false);
  assert.match(strict.message, /legacy \(pre-HTML5\)/);
  const late = runOn(check, '<p>x</p><!DOCTYPE html>');
  assert.equal(late.passed, false);
  assert.match(late.message, /comes after other markup/);
});
