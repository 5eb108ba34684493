import { test } from 'node:test';
import assert from 'node:assert/strict';
import check from './ai_crawlers.js';
import { page, runOn } from '../../../../test/helpers/checks.js';

const ROBOTS =
  'User-agent: GPTBot\nDisallow: /\n\nUser-agent: CCBot\nDisallow: /private/\n\nUser-agent: *\nAllow: /\n';

test('ai_crawlers: reports each agent as allowed or blocked for the page, and never fails', () => {
  const r = runOn(check, page(''), { url: 'https://example.com/private/a', robotsTxt: ROBOTS });
  assert.equal(r.passed, true);
  assert.deepEqual(r.value, ['GPTBot', 'CCBot']);
  assert.match(r.message, /blocks GPTBot, CCBot from this page \(a choice, not a failure\)/);
  assert.deepEqual(r.details, {
    type: 'table',
    headings: ['AI crawler', 'This page'],
    rows: [
      ['GPTBot', 'blocked'],
      ['ClaudeBot', 'allowed'],
      ['PerplexityBot', 'allowed'],
      ['Google-Extended', 'allowed'],
      ['CCBot', 'blocked'],
    ],
  });
  const home = runOn(check, page(''), { url: 'https://example.com/', robotsTxt: ROBOTS });
  assert.deepEqual(home.value, ['GPTBot']);
});

test('ai_crawlers: no robots.txt (404) allows all; not fetched or 5xx is not judged', () => {
  const r = runOn(check, page(''), { robotsStatus: 404 });
  assert.equal(r.passed, true);
  assert.deepEqual(r.value, []);
  assert.equal(runOn(check, page('')).passed, null);
  assert.equal(runOn(check, page(''), { robotsStatus: 500 }).passed, null);
});
