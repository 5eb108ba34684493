import { test } from 'node:test';
import assert from 'node:assert/strict';
import check from './sitemap.js';
import { page, runOn } from '../../../../test/helpers/checks.js';

const xml =
  '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/</loc></url></urlset>';

test('sitemap: passes when /sitemap.xml answers', () => {
  assert.equal(runOn(check, page(''), { sitemapXml: xml }).value, 'https://example.com/sitemap.xml');
});

test('sitemap: fails when it answers 404 and robots.txt names none', () => {
  const r = runOn(check, page(''), { sitemapStatus: 404, robotsTxt: 'User-agent: *\nAllow: /\n' });
  assert.equal(r.passed, false);
  assert.match(r.message, /answered 404/);
});

test('sitemap: a Sitemap line in robots.txt counts; nothing fetched is not judged', () => {
  assert.equal(
    runOn(check, page(''), { robotsTxt: 'Sitemap: https://example.com/map.xml\n', sitemapStatus: 404 })
      .passed,
    true,
  );
  assert.equal(runOn(check, page('')).passed, null);
});
