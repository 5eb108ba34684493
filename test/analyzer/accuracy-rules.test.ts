// Issue 13 items 18–21, one fixture page per rule (test/fixtures/pages/<case>/, golden reports
// beside them), audited by the real analyzer over HTTP on 127.0.0.1: the outcomes each rule is
// about, stated here so a golden refresh cannot silently undo them.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { AuditReport, CheckResult } from '../../src/analyzer/index.js';
import { auditCase, startFixturePages, type FixturePagesServer } from '../helpers/fixture-pages.js';

describe('accuracy rules on their fixture pages', () => {
  let pages: FixturePagesServer;
  const reports = new Map<string, AuditReport>();
  before(async () => {
    pages = await startFixturePages();
  });
  after(() => pages.close());

  async function check(name: string, id: string): Promise<CheckResult> {
    let r = reports.get(name);
    if (!r) {
      r = await auditCase(pages, name);
      reports.set(name, r);
    }
    const c = r.results[id];
    assert.ok(c, `${name}: no ${id}`);
    return c;
  }

  test('18 hidden-images: images in <noscript>, hidden ancestors or role=presentation/none do not fail alt', async () => {
    const c = await check('hidden-images', 'image_keywords');
    assert.equal(c.passed, true, c.message);
    assert.match(c.message, /5 images without alt are not judged/);
    assert.ok(c.details?.type === 'table' && c.details.rows.length === 5);
    // a hidden image is not "above the fold" work either
    assert.equal((await check('hidden-images', 'image_dimensions')).passed, true);
  });

  test('19 code-links: link text inside <code> is not judged generic', async () => {
    const c = await check('code-links', 'link_text');
    assert.equal(c.passed, true, c.message);
    assert.equal(c.message, 'All 4 links have descriptive text.');
  });

  test('20 anchor-placeholders: <a> without href/handler and aria-current links pass; javascript: still fails', async () => {
    const c = await check('anchor-placeholders', 'crawlable_anchors');
    assert.equal(c.passed, false);
    assert.ok(c.details?.type === 'table');
    assert.deepEqual(c.details.rows, [['javascript:void(0)', 'Print', 'javascript: URL']]);
  });

  test('21 doctypes by rendering mode: legacy standards-mode passes with a note, limited-quirks fails', async () => {
    const legacy = await check('legacy-doctype', 'doctype');
    assert.equal(legacy.passed, true);
    assert.match(legacy.message, /renders in standards mode; <!DOCTYPE html> is the modern form/);
    const quirks = await check('quirks-doctype', 'doctype');
    assert.equal(quirks.passed, false);
    assert.match(quirks.message, /limited-quirks mode/);
  });
});
