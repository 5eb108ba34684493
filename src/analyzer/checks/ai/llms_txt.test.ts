import { test } from 'node:test';
import assert from 'node:assert/strict';
import check from './llms_txt.js';
import { page, runOn } from '../../../../test/helpers/checks.js';
import { parseLlmsTxt } from '../../artifacts/llms.js';

const VALID = `# Example Shop

> Hand-made furniture, shipped across Europe.

We answer within a day.

## Docs

- [Shipping](https://example.com/shipping.md): costs and delays
- [Returns](https://example.com/returns.md)

## Optional

- [About us](https://example.com/about)
`;

test('llms_txt: a file in the proposed format passes, with its parts named', () => {
  const r = runOn(check, page(''), { llmsTxt: VALID });
  assert.equal(r.passed, true);
  assert.equal(r.value, 'valid');
  assert.match(r.message, /"Example Shop", a summary, 2 sections, 3 links/);
  assert.deepEqual(parseLlmsTxt(VALID), {
    title: 'Example Shop',
    summary: 'Hand-made furniture, shipped across Europe.',
    sections: 2,
    links: 3,
    problems: [],
  });
});

test('llms_txt: missing (404) fails as missing; 5xx and not fetched are not judged', () => {
  const r = runOn(check, page(''), { llmsStatus: 404 });
  assert.equal(r.passed, false);
  assert.equal(r.value, 'missing');
  assert.equal(runOn(check, page(''), { llmsStatus: 503 }).passed, null);
  assert.equal(runOn(check, page('')).passed, null);
  assert.equal(runOn(check, page(''), { llmsStatus: null }).passed, null);
});

test('llms_txt: each broken rule is named', () => {
  const noH1 = runOn(check, page(''), { llmsTxt: 'Example\n\n## Docs\n- [A](https://e.com/a)\n' });
  assert.equal(noH1.passed, false);
  assert.equal(noH1.value, 'invalid');
  assert.match(noH1.message, /first line is not an H1/);

  const h3 = parseLlmsTxt('# Site\n\n### Docs\n- [A](https://e.com/a)\n');
  assert.match(h3.problems[0]!, /Sections must be H2 headings.*"### Docs"/);

  const bare = parseLlmsTxt('# Site\n\n## Docs\n- the shipping page\n- [Ok](https://e.com/ok)\n');
  assert.equal(bare.links, 1);
  assert.match(bare.problems[0]!, /must start with a Markdown link.*"- the shipping page"/);

  const htmlPage = runOn(check, page(''), { llmsTxt: '<!doctype html><html><body>Home</body></html>' });
  assert.equal(htmlPage.passed, false);
  assert.match(htmlPage.message, /HTML page, not Markdown/);
  assert.match(parseLlmsTxt('  \n').problems[0]!, /empty/);
});

test('llms_txt: an H1 alone is valid (the one required part)', () => {
  assert.deepEqual(parseLlmsTxt('# Just a name\n').problems, []);
});
