import { test } from 'node:test';
import assert from 'node:assert/strict';
import check, { hreflangProblem } from './hreflang.js';
import { page, runOn } from '../../../../test/helpers/checks.js';

const head = (links: string) => `<title>t</title>${links}`;

test('hreflang: valid alternates with self-reference and x-default pass', () => {
  const r = runOn(
    check,
    page(
      'x',
      head(
        '<link rel="alternate" hreflang="en" href="https://example.com/"><link rel="alternate" hreflang="de-DE" href="https://example.com/de/"><link rel="alternate" hreflang="x-default" href="https://example.com/">',
      ),
    ),
  );
  assert.equal(r.passed, true);
  assert.match(r.message, /3 hreflang alternates are valid \(en, de-de, x-default\)\.$/);
});

test('hreflang: bad codes and relative or missing hrefs fail, listed in the details', () => {
  const r = runOn(
    check,
    page(
      'x',
      head(
        '<link rel="alternate" hreflang="xx" href="https://xx.example.com"><link rel="alternate" hreflang="es" href="/es/"><link rel="alternate" hreflang="en-UK" href="https://example.com/uk/"><link rel="alternate" hreflang="fr">',
      ),
    ),
  );
  assert.equal(r.passed, false);
  assert.equal(r.value, 4);
  assert.ok(r.details?.type === 'table');
  const problems = r.details.rows.map((row) => row[3]);
  assert.deepEqual(problems, [
    'unknown language code "xx"',
    'relative href (must be an absolute URL)',
    'unknown region "UK" (the United Kingdom is GB)',
    'no href',
  ]);
  assert.match(r.message, /Advice: the page does not list itself.*no x-default/);
});

test('hreflang: not applicable without alternates; body links ignored; one code with two URLs fails', () => {
  assert.equal(
    runOn(check, page('<link rel="alternate" hreflang="nonsense" href="https://x.example">'))
      .inconclusive_reason,
    'not_applicable',
  );
  const r = runOn(
    check,
    page(
      'x',
      head(
        '<link rel="alternate" hreflang="de" href="https://example.com/de/"><link rel="alternate" hreflang="DE" href="https://example.com/de2/">',
      ),
    ),
  );
  assert.equal(r.passed, false);
  assert.match(r.message, /1 code points to several URLs/);
});

test('hreflang: code validation', () => {
  for (const ok of ['en', 'en-GB', 'zh-Hans-TW', 'es-419', 'X-Default', 'fil', 'sr-Latn'])
    assert.equal(hreflangProblem(ok), null, ok);
  for (const bad of [' x-default', 'en_US', 'english', 'en-ZZ', 'de-DE-xyz!', ''])
    assert.notEqual(hreflangProblem(bad), null, bad);
});
