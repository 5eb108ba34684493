import { test } from 'node:test';
import assert from 'node:assert/strict';
import check from './doctype.js';
import { runOn } from '../../../../test/helpers/checks.js';

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

test('doctype: edge — limited-quirks and a late doctype fail; legacy standards-mode doctypes pass with a note', () => {
  const xhtml = runOn(
    check,
    '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd"><p>x',
  );
  assert.equal(xhtml.passed, false);
  assert.match(xhtml.message, /limited-quirks/);
  const loose = runOn(
    check,
    '<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN" "http://www.w3.org/TR/html4/loose.dtd"><p>x',
  );
  assert.equal(loose.passed, false, 'HTML 4.01 Transitional with a system identifier: limited-quirks');
  assert.match(loose.message, /limited-quirks/);
  for (const legacy of [
    '<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01//EN" "http://www.w3.org/TR/html4/strict.dtd">',
    '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">',
    '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.1//EN" "http://www.w3.org/TR/xhtml11/DTD/xhtml11.dtd">',
  ]) {
    const r = runOn(check, `${legacy}<p>x`);
    assert.equal(r.passed, true, legacy);
    assert.equal(r.title, 'The doctype selects standards mode');
    assert.match(
      r.message,
      /legacy \(pre-HTML5\) declaration that renders in standards mode; <!DOCTYPE html> is the modern form\./,
    );
  }
  assert.equal(
    runOn(check, '<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.1E//EN"><p>x').passed,
    false,
    'a quirks prefix of the standard',
  );
  const late = runOn(check, '<p>x</p><!DOCTYPE html>');
  assert.equal(late.passed, false);
  assert.match(late.message, /comes after other markup/);
  assert.equal(runOn(check, '<!-- a comment --><!DOCTYPE html><p>x').passed, true, 'comments may come first');
});
