// Examples for the OpenAPI document: real answers of the API (captured from the test app,
// host names changed to example.com, report results cut to three checks). The document's
// lint (test/api/openapi-lint.test.ts, Redocly's recommended rules) validates each one against
// its schema, so an example that drifts from the schema fails the tests.
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

export const reportSummary = {
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
  links: {
    self: 'https://pagegrade.example.com/api/v1/reports/1',
    page: 'https://pagegrade.example.com/reports/1',
  },
};

export const reportListMeta = {
  links: {
    first: 'https://pagegrade.example.com/api/v1/reports?page=1',
    last: 'https://pagegrade.example.com/api/v1/reports?page=1',
    prev: null,
    next: null,
  },
  meta: {
    current_page: 1,
    from: 1,
    to: 1,
    last_page: 1,
    per_page: 10,
    total: 1,
    path: 'https://pagegrade.example.com/api/v1/reports',
  },
};

export const project = {
  project: 'example.com',
  created_at: '2026-11-25T22:54:35.584Z',
  reports_count: 1,
};

export const projectListMeta = {
  links: {
    first: 'https://pagegrade.example.com/api/v1/projects?page=1',
    last: 'https://pagegrade.example.com/api/v1/projects?page=1',
    prev: null,
    next: null,
  },
  meta: {
    current_page: 1,
    from: 1,
    to: 1,
    last_page: 1,
    per_page: 10,
    total: 1,
    path: 'https://pagegrade.example.com/api/v1/projects',
  },
};

export const runSummary = {
  id: 2,
  report_id: 1,
  status: 'completed',
  current: true,
  source: 'api',
  generated_at: '2026-01-15T10:00:00.000Z',
  final_url: 'https://example.com/pricing',
  result: 'good',
  score: 88,
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
  error: null,
  links: {
    self: 'https://pagegrade.example.com/api/v1/reports/1/runs/2',
    report: 'https://pagegrade.example.com/api/v1/reports/1',
  },
};

export const runListMeta = {
  links: {
    first: 'https://pagegrade.example.com/api/v1/reports/1/runs?page=1',
    last: 'https://pagegrade.example.com/api/v1/reports/1/runs?page=1',
    prev: null,
    next: null,
  },
  meta: {
    current_page: 1,
    from: 1,
    to: 2,
    last_page: 1,
    per_page: 10,
    total: 2,
    path: 'https://pagegrade.example.com/api/v1/reports/1/runs',
  },
};

export const run = {
  id: 1,
  report_id: 1,
  status: 'completed',
  current: false,
  source: null,
  generated_at: '2026-01-15T10:00:00.000Z',
  final_url: 'https://example.com/pricing',
  result: 'good',
  score: 88,
  categories: report.categories,
  error: null,
  results: report.results,
  page: report.page,
  links: {
    self: 'https://pagegrade.example.com/api/v1/reports/1/runs/1',
    report: 'https://pagegrade.example.com/api/v1/reports/1',
  },
};

export const diff = {
  report_id: 1,
  from: {
    id: 1,
    report_id: 1,
    status: 'completed',
    current: false,
    source: null,
    generated_at: '2026-01-15T10:00:00.000Z',
    final_url: 'https://example.com/pricing',
    result: 'good',
    score: 88,
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
    error: null,
    links: {
      self: 'https://pagegrade.example.com/api/v1/reports/1/runs/1',
      report: 'https://pagegrade.example.com/api/v1/reports/1',
    },
  },
  to: {
    id: 2,
    report_id: 1,
    status: 'completed',
    current: true,
    source: 'api',
    generated_at: '2026-01-15T10:00:00.000Z',
    final_url: 'https://example.com/pricing',
    result: 'good',
    score: 85,
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
        score: 60,
        passed: 4,
        failed: 4,
      },
      miscellaneous: {
        score: 94,
        passed: 10,
        failed: 2,
      },
    },
    error: null,
    links: {
      self: 'https://pagegrade.example.com/api/v1/reports/1/runs/2',
      report: 'https://pagegrade.example.com/api/v1/reports/1',
    },
  },
  changed: true,
  regression: true,
  score: {
    from: 88,
    to: 85,
    delta: -3,
  },
  result: {
    from: 'good',
    to: 'good',
    change: 'same',
  },
  categories: {
    seo: {
      from: 96,
      to: 96,
      delta: 0,
    },
    performance: {
      from: 75,
      to: 75,
      delta: 0,
    },
    security: {
      from: 70,
      to: 60,
      delta: -10,
    },
    miscellaneous: {
      from: 94,
      to: 94,
      delta: 0,
    },
  },
  checks: {
    newly_failed: [
      {
        id: 'hsts',
        title: 'HSTS',
        category: 'security',
        priority: 'high',
        from: 'passed',
        to: 'failed',
        message: 'The page does not send a Strict-Transport-Security header.',
      },
    ],
    newly_passed: [],
    newly_inconclusive: [],
    value_changed: [],
  },
  page: [],
  links: {
    self: 'https://pagegrade.example.com/api/v1/reports/1/diff?from=1&to=2',
    report: 'https://pagegrade.example.com/api/v1/reports/1',
  },
};

export const webhookCreated = {
  id: 1,
  url: 'https://hooks.example.com/pagegrade',
  events: ['report.created'],
  description: 'CI',
  enabled: true,
  disabled_at: null,
  disabled_reason: null,
  consecutive_failures: 0,
  created_at: '2026-11-25T22:54:35.658Z',
  updated_at: '2026-11-25T22:54:35.658Z',
  secret: 'whsec_1HQPjfhILrZIaGfx576PeJiVtHXi4Md4E3Sm1QFOrEw=',
  links: {
    self: 'https://pagegrade.example.com/api/v1/webhooks/1',
    deliveries: 'https://pagegrade.example.com/api/v1/webhooks/1/deliveries',
  },
};

export const webhook = {
  id: 1,
  url: 'https://hooks.example.com/pagegrade',
  events: ['report.created'],
  description: 'CI',
  enabled: true,
  disabled_at: null,
  disabled_reason: null,
  consecutive_failures: 0,
  created_at: '2026-11-25T22:54:35.658Z',
  updated_at: '2026-11-25T22:54:35.658Z',
  links: {
    self: 'https://pagegrade.example.com/api/v1/webhooks/1',
    deliveries: 'https://pagegrade.example.com/api/v1/webhooks/1/deliveries',
  },
};

export const webhookListMeta = {
  links: {
    first: 'https://pagegrade.example.com/api/v1/webhooks?page=1',
    last: 'https://pagegrade.example.com/api/v1/webhooks?page=1',
    prev: null,
    next: null,
  },
  meta: {
    current_page: 1,
    from: 1,
    to: 1,
    last_page: 1,
    per_page: 10,
    total: 1,
    path: 'https://pagegrade.example.com/api/v1/webhooks',
  },
};

export const delivery = {
  id: 1,
  webhook_id: 1,
  event: 'webhook.test',
  webhook_message_id: 'msg_o0gXfCKgo-1lvopdLRcIHA',
  status: 'pending',
  attempts: 0,
  response_status: null,
  duration_ms: null,
  error: null,
  redelivery_of: null,
  created_at: '2026-11-25T22:54:35.666Z',
  last_attempt_at: null,
  delivered_at: null,
  links: {
    self: 'https://pagegrade.example.com/api/v1/webhooks/1/deliveries/1',
  },
};

export const deliveryListMeta = {
  links: {
    first: 'https://pagegrade.example.com/api/v1/webhooks/1/deliveries?page=1',
    last: 'https://pagegrade.example.com/api/v1/webhooks/1/deliveries?page=1',
    prev: null,
    next: null,
  },
  meta: {
    current_page: 1,
    from: 1,
    to: 1,
    last_page: 1,
    per_page: 10,
    total: 1,
    path: 'https://pagegrade.example.com/api/v1/webhooks/1/deliveries',
  },
};

export const deliveryWithPayload = {
  id: 1,
  webhook_id: 1,
  event: 'webhook.test',
  webhook_message_id: 'msg_o0gXfCKgo-1lvopdLRcIHA',
  status: 'pending',
  attempts: 0,
  response_status: null,
  duration_ms: null,
  error: null,
  redelivery_of: null,
  created_at: '2026-11-25T22:54:35.666Z',
  last_attempt_at: null,
  delivered_at: null,
  payload: {
    type: 'webhook.test',
    timestamp: '2026-11-25T22:54:35.666Z',
    data: {
      webhook: {
        id: 1,
        url: 'https://hooks.example.com/pagegrade',
      },
    },
  },
  links: {
    self: 'https://pagegrade.example.com/api/v1/webhooks/1/deliveries/1',
  },
};
export const account = {
  id: 1,
  name: 'alice',
  created_at: '2026-11-01T09:30:00.000Z',
  reports_count: 42,
  projects_count: 3,
  key: {
    id: 7,
    prefix: 'pg_Ab3dE9',
    scopes: ['read'],
    projects: ['example.com'],
    created_at: '2026-11-20T08:00:00.000Z',
    last_used_at: '2026-11-25T21:14:05.120Z',
    expires_at: '2026-12-20T08:00:00.000Z',
  },
};

/** GET /api/v1/reports?format=csv (docs/api.md#csv): a header line, then one line per report. */
export const reportListCsv =
  'id,url,project,result,score,high_issues,medium_issues,low_issues,generated_at,created_at\n' +
  '2,"https://example.com/search?q=a,b",example.com,decent,71,1,3,2,2026-01-15T10:00:00.000Z,2026-11-25T22:55:02.118Z\n' +
  '1,https://example.com/pricing,example.com,good,88,0,2,3,2026-01-15T10:00:00.000Z,2026-11-25T22:54:35.584Z\n';

/** GET/PUT /api/v1/account/branding (the logo: a 1×1 PNG) */
export const branding = {
  name: 'Acme Web Agency',
  accent_color: '#0f766e',
  contact: 'audits@acme.example · +44 20 7946 0000',
  prepared_for: 'Example Ltd',
  logo: {
    type: 'image/png',
    bytes: 70,
    data_url:
      'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  },
  updated_at: '2026-11-26T09:15:00.000Z',
};
