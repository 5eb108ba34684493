import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import check from './robots.js';
import { page, runOn } from '../../../../test/helpers/checks.js';

test('robots: passes when the page is allowed', () => {
  const r = runOn(check, page(''), {
    url: 'https://example.com/shop/',
    robotsTxt: 'User-agent: *\nDisallow: /admin/\n',
  });
  assert.equal(r.passed, true);
});

test('robots: fails when disallowed for everyone, naming the line', () => {
  const r = runOn(check, page(''), {
    url: 'https://example.com/admin/x',
    robotsTxt: 'User-agent: *\nDisallow: /admin/\n',
  });
  assert.equal(r.passed, false);
  assert.match(r.message, /line 2/);
});

test('robots: a group for our agent counts; 404 is allowed; not fetched is not judged', () => {
  const txt = 'User-agent: Pagegrade\nDisallow: /\n\nUser-agent: *\nAllow: /\n';
  assert.equal(runOn(check, page(''), { robotsTxt: txt }).passed, false);
  assert.equal(runOn(check, page(''), { robotsStatus: 404 }).passed, true);
  assert.equal(runOn(check, page('')).passed, null);
});

test('robots: the Lighthouse fixture robots.txt allows everything', (t) => {
  const file = new URL('../../../../../shared/corpus/lighthouse-seo/robots.txt', import.meta.url);
  if (!existsSync(file)) return t.skip('Lighthouse fixtures (../shared/corpus) not found');
  const txt = readFileSync(file, 'utf8');
  assert.equal(
    runOn(check, page(''), { url: 'http://localhost:10200/seo/seo-tester.html', robotsTxt: txt }).passed,
    true,
  );
});
