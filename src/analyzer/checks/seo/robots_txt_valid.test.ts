import { test } from 'node:test';
import assert from 'node:assert/strict';
import check, { validateRobotsTxt } from './robots_txt_valid.js';
import { page, runOn } from '../../../../test/helpers/checks.js';

test('robots_txt_valid: a well-formed file passes', () => {
  const r = runOn(check, page('x'), {
    robotsTxt:
      '# rules\nUser-agent: *\nDisallow: /admin/\nAllow: /admin/public$\n\nSitemap: https://example.com/sitemap.xml\n',
  });
  assert.equal(r.passed, true);
  assert.equal(r.message, 'robots.txt parses without errors.');
});

test('robots_txt_valid: unknown directives, rules before User-agent and bad values fail with line numbers', () => {
  const r = runOn(check, page('x'), {
    robotsTxt:
      'Disallow: /x\nUser-agent: *\nDisalow: /typo\nDisallow: admin\nthis is prose\nSitemap: /sitemap.xml\nCrawl-delay: soon\n',
  });
  assert.equal(r.passed, false);
  assert.equal(r.value, 6);
  assert.match(r.message, /6 invalid lines \(line 1: disallow before any user-agent line\)/);
  assert.ok(r.details?.type === 'table');
  assert.deepEqual(
    r.details.rows.map((row) => row[0]),
    [1, 3, 4, 5, 6, 7],
  );
});

test('robots_txt_valid: 404 is allowed and reported; 5xx and an HTML soft-200 fail; not fetched is not judged', () => {
  const missing = runOn(check, page('x'), { robotsStatus: 404 });
  assert.equal(missing.passed, true);
  assert.match(missing.message, /no robots.txt \(it answered 404\): allowed/);
  const down = runOn(check, page('x'), { robotsStatus: 503 });
  assert.equal(down.passed, false);
  assert.match(down.message, /answered 503/);
  const soft = runOn(check, page('x'), {
    robotsTxt: '<!DOCTYPE html><html><body>Home</body></html>',
    robotsHeaders: { 'content-type': 'text/html' },
  });
  assert.equal(soft.passed, false);
  assert.match(soft.message, /HTML page instead of a text file/);
  assert.equal(runOn(check, page('x')).passed, null);
});

test('robots_txt_valid: the validator caps its list and counts the rest', () => {
  const { errors, total } = validateRobotsTxt('junk\n'.repeat(80));
  assert.equal(errors.length, 50);
  assert.equal(total, 80);
});
