// Our checks against Lighthouse's own SEO smoke-test pages (../shared/corpus/lighthouse-seo,
// read in place), where they judge the same thing: title, meta description, lang, indexing
// directives, robots.txt, viewport, headings. Served as if from Lighthouse's test server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runChecks } from '../run-checks.js';
import { artifactsFrom } from '../../../test/helpers/checks.js';

const corpus = fileURLToPath(new URL('../../../../shared/corpus/lighthouse-seo/', import.meta.url));

function audit(rel: string): Record<string, boolean | null> {
  const html = readFileSync(corpus + rel, 'utf8');
  const robotsTxt = readFileSync(`${corpus}robots.txt`, 'utf8');
  const results = runChecks(artifactsFrom(html, { url: `http://localhost:10200/${rel}`, robotsTxt }));
  return Object.fromEntries(Object.values(results).map((r) => [r.id, r.passed]));
}

function expectResults(rel: string, expected: Record<string, boolean>) {
  return (t: { skip: (m: string) => void }) => {
    if (!existsSync(corpus + rel)) {
      t.skip(`Lighthouse fixtures not found at ${corpus}`);
      return;
    }
    const got = audit(rel);
    for (const [id, passed] of Object.entries(expected)) assert.equal(got[id], passed, `${rel}: ${id}`);
  };
}

test(
  'lighthouse fixtures: seo-tester.html passes what Lighthouse passes',
  expectResults('seo/seo-tester.html', {
    title: true,
    meta_description: true,
    language: true,
    noindex: true,
    robots: true,
    meta_viewport: true,
    headings: true,
    charset: true,
  }),
);

test(
  'lighthouse fixtures: seo-failure-cases.html fails what Lighthouse fails',
  expectResults('seo/seo-failure-cases.html', {
    title: false, // no <title>
    meta_description: false, // no description
    noindex: false, // <meta name="RoBots" content="nofollow, NOINDEX, all">
    language: false, // <html> without lang
    meta_viewport: false, // none
    robots: true, // robots.txt allows everything
  }),
);

test(
  'lighthouse fixtures: legacy v11 failure page (invalid viewport, applet/flash plugins)',
  expectResults('legacy-v11/seo/seo-failure-cases.html', {
    title: false,
    noindex: false,
    meta_viewport: false, // content="invalid-content=should_have_looked_it_up"
    deprecated_html: false, // <applet>
  }),
);

test(
  'lighthouse fixtures: mixed-language link texts page has a lang and one h1',
  expectResults('seo/seo-mixed-language.html', { language: true, headings: true }),
);
