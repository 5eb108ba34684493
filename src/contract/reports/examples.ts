// The reports' examples for the OpenAPI document: real answers of the API (captured from the test app,
// host names changed to example.com, report results cut to three checks). The document's
// lint (test/api/openapi-lint.test.ts, Redocly's recommended rules) validates each one against
// its schema, so an example that drifts from the schema fails the tests.
import { listExample } from '../pagination.js';

export const report = {
  id: 1,
  url: 'https://example.com/pricing',
  final_url: 'https://example.com/pricing',
  project: 'example.com',
  result: 'good',
  score: 88,
  privacy: 0,
  has_password: false,
  generated_at: '2026-01-15T10:00:00.000Z',
  created_at: '2026-11-25T22:54:35.584Z',
  updated_at: '2026-11-25T22:54:35.616Z',
  categories: {
    seo: {
      score: 96,
      passed: 17,
      failed: 1,
    },
    performance: {
      score: 75,
      passed: 9,
      failed: 2,
    },
    security: {
      score: 70,
      passed: 5,
      failed: 3,
    },
    miscellaneous: {
      score: 94,
      passed: 10,
      failed: 2,
    },
  },
  results: {
    title: {
      id: 'title',
      category: 'seo',
      priority: 'high',
      passed: true,
      title: 'The page has a title of a good length',
      message: 'The title is 43 characters long.',
      value: 'Fixture Gardening Guide for Small Balconies',
      how_to_fix:
        'Give the page exactly one <title> in its <head>, describing the page in 1\u201360 characters, so that search results show it in full.',
    },
    meta_description: {
      id: 'meta_description',
      category: 'seo',
      priority: 'high',
      passed: true,
      title: 'The page has a meta description',
      message: 'The meta description is 106 characters long.',
      value:
        'How to grow herbs, tomatoes and flowers on a small balcony: soil, light, watering and the best containers.',
      how_to_fix:
        'Add <meta name="description" content="\u2026"> to the <head>: one or two sentences summing up the page, which search engines may show under the title.',
    },
    canonical: {
      id: 'canonical',
      category: 'seo',
      priority: 'medium',
      passed: false,
      title: 'The page has no valid canonical URL',
      message:
        "The canonical URL points to the site's root (https://example.com/) from /pricing, instead of to an equivalent page: search engines would drop this page in favour of the home page.",
      value: 'https://example.com/',
      details: {
        type: 'list',
        items: ['<link rel=canonical>: https://example.com/'],
      },
      how_to_fix:
        'Add one <link rel="canonical" href="https://\u2026"> in the <head> with the absolute URL of the page as it should appear in search results (usually the page itself); do not point every page to the home page, and keep the HTML and any Link header in agreement.',
    },
  },
  page: {
    status: 200,
    http_version: '1.1',
    redirects: [],
    timings: {
      dns_ms: 1,
      connect_ms: 1,
      tls_ms: null,
      ttfb_ms: 10,
      total_ms: 50,
    },
    sizes: {
      transfer_bytes: 2435,
      html_bytes: 2435,
    },
    requests: {
      scripts: 1,
      stylesheets: 0,
      images: 1,
      iframes: 0,
      media: 0,
      fonts: 0,
      other: 1,
      total: 3,
    },
  },
  links: {
    self: 'https://pagegrade.example.com/api/v1/reports/1',
    page: 'https://pagegrade.example.com/reports/1',
  },
};

/** A report as listed: the report without its results and page. */
export const reportSummary = (({ results: _results, page: _page, ...summary }) => summary)(report);

export const reportListMeta = listExample('https://pagegrade.example.com/api/v1/reports');

/** GET /api/v1/reports?format=csv (docs/api.md#csv): a header line, then one line per report. */
export const reportListCsv =
  'id,url,project,result,score,high_issues,medium_issues,low_issues,generated_at,created_at\n' +
  '2,"https://example.com/search?q=a,b",example.com,decent,71,1,3,2,2026-01-15T10:00:00.000Z,2026-11-25T22:55:02.118Z\n' +
  '1,https://example.com/pricing,example.com,good,88,0,2,3,2026-01-15T10:00:00.000Z,2026-11-25T22:54:35.584Z\n';
