import { test } from 'node:test';
import assert from 'node:assert/strict';
import check from './json_ld_valid.js';
import { page, runOn } from '../../../../test/helpers/checks.js';

const ld = (json: string) => `<script type="application/ld+json">${json}</script>`;

test('json_ld_valid: typed blocks with @context pass (object, array, @graph)', () => {
  const r = runOn(
    check,
    page(
      ld('{"@context":"https://schema.org","@type":"Organization","name":"A"}') +
        ld('[{"@context":"https://schema.org","@type":"WebSite"}]') +
        ld('{"@context":"https://schema.org","@graph":[{"@type":"Article"},{"@type":["Person","Thing"]}]}'),
    ),
  );
  assert.equal(r.passed, true);
  assert.equal(
    r.message,
    '3 JSON-LD blocks parse and declare types (Organization, WebSite, Article, Person, Thing).',
  );
});

test('json_ld_valid: broken JSON and missing @context/@type fail, per block', () => {
  const r = runOn(
    check,
    page(
      ld('{"@context":"https://schema.org","@type":"Product",}') +
        ld('{"@type":"Event"}') +
        ld('{"@context":"https://schema.org","name":"x"}'),
    ),
  );
  assert.equal(r.passed, false);
  assert.equal(r.value, 3);
  assert.match(r.message, /^3 of 3 JSON-LD blocks are invalid \(block 1: invalid JSON: /);
  assert.ok(r.details?.type === 'table');
  assert.deepEqual(r.details.rows.slice(1), [
    [2, 'Event', 'no @context'],
    [3, '', 'no @type'],
  ]);
});

test('json_ld_valid: edge — not applicable without JSON-LD; comment/CDATA wrappers tolerated; empty block fails', () => {
  assert.equal(runOn(check, page('<p>x</p>')).inconclusive_reason, 'not_applicable');
  assert.equal(
    runOn(check, page(ld('<!--{"@context":"https://schema.org","@type":"Thing"}-->'))).passed,
    true,
  );
  assert.equal(
    runOn(check, page(ld('//<![CDATA[\n{"@context":"https://schema.org","@type":"Thing"}\n//]]>'))).passed,
    true,
  );
  assert.match(runOn(check, page(ld('  '))).message, /empty block/);
  assert.match(
    runOn(check, page(ld('{"@context":"https://schema.org","@graph":[{"name":"x"}]}'))).message,
    /1 @graph node without @type/,
  );
});
