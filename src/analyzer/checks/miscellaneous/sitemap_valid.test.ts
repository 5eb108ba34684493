import { test } from 'node:test';
import assert from 'node:assert/strict';
import check, { rootElement } from './sitemap_valid.js';
import { page, runOn } from '../../../../test/helpers/checks.js';

const urlset = (locs: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs.map((l) => `<url><loc>${l}</loc></url>`).join('')}</urlset>`;

test('sitemap_valid: a urlset of this site passes', () => {
  const r = runOn(check, page('x'), {
    sitemapXml: urlset([
      'https://example.com/',
      'https://www.example.com/a',
      'http://example.com/b?x=1&amp;y=2',
    ]),
  });
  assert.equal(r.passed, true);
  assert.equal(
    r.message,
    'The sitemap https://example.com/sitemap.xml parses and lists 3 URLs of example.com.',
  );
  assert.equal(r.value, 3);
});

test('sitemap_valid: broken XML, a wrong root, no URLs, or other hosts fail', () => {
  const broken = runOn(check, page('x'), {
    sitemapXml: '<urlset><url><loc>https://example.com/</loc></urlset>',
  });
  assert.equal(broken.passed, false);
  assert.match(broken.message, /is not well-formed XML/);
  assert.match(
    runOn(check, page('x'), { sitemapXml: '<?xml version="1.0"?><html><body/></html>' }).message,
    /has a <html> root element/,
  );
  assert.match(runOn(check, page('x'), { sitemapXml: '<urlset></urlset>' }).message, /lists no <loc> URLs/);
  const foreign = runOn(check, page('x'), {
    sitemapXml: urlset(['https://example.com/', 'https://other.org/x', 'relative/path']),
  });
  assert.equal(foreign.passed, false);
  assert.match(foreign.message, /^2 of 3 URLs in the sitemap .* are not absolute URLs of example.com/);
  assert.ok(foreign.details?.type === 'list' && foreign.details.items.length === 2);
});

test('sitemap_valid: edge — not applicable when none was found; sitemap index; text sitemaps', () => {
  assert.equal(runOn(check, page('x')).inconclusive_reason, 'not_applicable');
  assert.equal(runOn(check, page('x'), { sitemapStatus: 404 }).inconclusive_reason, 'not_applicable');
  // an HTML page at /sitemap.xml with no Sitemap: line in robots.txt is the `sitemap` check's failure, not ours
  const soft = {
    sitemapXml: '<!DOCTYPE html><html><body>Home</body></html>',
    sitemapHeaders: { 'content-type': 'text/html' },
  };
  assert.equal(runOn(check, page('x'), soft).inconclusive_reason, 'not_applicable');
  const index = runOn(check, page('x'), {
    sitemapXml:
      '<?xml version="1.0"?><!-- generated --><sm:sitemapindex xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9"><sm:sitemap><sm:loc>https://example.com/s1.xml</sm:loc></sm:sitemap></sm:sitemapindex>',
  });
  assert.equal(index.passed, true);
  assert.match(index.message, /^The sitemap index/);
  const text = runOn(check, page('x'), {
    sitemapXml: 'https://example.com/\nhttps://example.com/a\n',
    sitemapHeaders: { 'content-type': 'text/plain' },
  });
  assert.equal(text.passed, true);
  assert.match(text.message, /plain-text sitemap with 2 URLs/);
  assert.equal(rootElement('<?xml version="1.0"?>\n<!DOCTYPE x>\n<urlset>'), 'urlset');
});
