// The history's examples for the OpenAPI document (runs and a diff), real answers as in
// src/contract/reports/examples.ts; the document's lint validates each against its schema.
import { report } from '../reports/examples.js';

export const runSummary = {
  id: 2,
  report_id: 1,
  status: 'completed',
  current: true,
  source: 'api',
  batch_id: null,
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
  batch_id: null,
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
    batch_id: null,
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
    batch_id: null,
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
    // raw runs: accessibility is not judged (0), ai is outside the overall score
    accessibility: {
      from: 0,
      to: 0,
      delta: 0,
    },
    ai: {
      from: 67,
      to: 67,
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
