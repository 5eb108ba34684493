// Issue states across a project's consecutive crawls (docs/sites.md, "Issue states and ignore
// rules"), updated once when a crawl ends `done`: every failed check of a page and every site
// finding of a page it names is `new` (not in the project's previous crawl), `persisting` (in
// it too; since the first crawl of the run), or `ignored` (a rule covers it); what the previous
// crawl had and this one did not find is `fixed`. Written in chunks of pages read from the
// database (a chunk's pages and their facts, its stored states read by URL, the new ones
// upserted, all let go before the next), then two set-based statements close the crawl, so a
// 100,000-page crawl holds one chunk's pages and states at a time (and its findings).
import type { PageFacts } from '../../crawl/facts.js';
import type { Finding } from '../../crawl/findings/index.js';
import { pagesAfter } from '../../store/batches.repository.js';
import type { Db } from '../../store/database.js';
import {
  closeIssues,
  fixedFindingPages,
  issuesOfUrls,
  lastIssuesBatch,
  upsertIssues,
  type IssueRow,
} from '../../store/issues.repository.js';

/** pages whose states are read and written at once */
const CHUNK = 500;

interface Current {
  kind: 'check' | 'finding';
  issueId: string;
  url: string;
  priority: string;
  title: string;
  detail: string | null;
  rule: { id: string; reason: string } | null;
}

const keyOf = (kind: string, issueId: string, url: string) => `${kind}\u0000${issueId}\u0000${url}`;

/**
 * Updates the project's states with this crawl's issues and returns its findings with each
 * page's state (and the pages fixed since the previous crawl). A crawl that ends after a newer
 * crawl of the project already set the states leaves them (and its findings) as they are.
 */
export async function updateIssueStates(
  trx: Db,
  batch: { id: number; userId: number; project: string },
  findings: readonly Finding[],
  now: string,
): Promise<Finding[]> {
  const { id: batchId, userId, project } = batch;
  const last = await lastIssuesBatch(trx, userId, project);
  if (last !== null && last > batchId) return [...findings];

  // the findings' issues by page (the findings are in memory already)
  const findingIssues = new Map<string, Current[]>();
  const add = (c: Current) => {
    const list = findingIssues.get(c.url);
    if (list) list.push(c);
    else findingIssues.set(c.url, [c]);
  };
  for (const f of findings) {
    const base = { kind: 'finding' as const, issueId: f.id, priority: f.priority, title: f.title };
    for (const p of f.pages) add({ ...base, url: p.url, detail: p.detail ?? null, rule: null });
    for (const p of f.ignored ?? [])
      add({ ...base, url: p.url, detail: p.detail ?? null, rule: { id: p.rule_id, reason: p.reason } });
  }

  // the findings' pages' states, for the findings as stored
  const findingStates = new Map<string, { state: 'new' | 'persisting'; since: number }>();
  const write = async (chunk: string[], current: Current[]) => {
    if (current.length === 0) return;
    const stored = new Map(
      (await issuesOfUrls(trx, userId, project, chunk)).map((r) => [keyOf(r.kind, r.issueId, r.url), r]),
    );
    const rows = new Map<string, IssueRow>();
    for (const c of current) {
      const key = keyOf(c.kind, c.issueId, c.url);
      if (rows.has(key)) continue; // one issue a page (a finding may name a page twice)
      const prev = stored.get(key);
      // in the previous crawl: any state but fixed (fixed = it was not)
      const before = prev !== undefined && prev.state !== 'fixed';
      const state = c.rule ? 'ignored' : before ? 'persisting' : 'new';
      const first = before ? prev.firstBatchId : batchId;
      rows.set(key, {
        kind: c.kind,
        issueId: c.issueId,
        url: c.url,
        state,
        priority: c.priority,
        title: c.title,
        detail: c.detail,
        firstBatchId: first,
        batchId,
        ruleId: c.rule?.id ?? null,
        reason: c.rule?.reason ?? null,
        updatedAt: now,
      });
      if (c.kind === 'finding' && state !== 'ignored') findingStates.set(key, { state, since: first });
    }
    await upsertIssues(trx, userId, project, [...rows.values()]);
  };
  // the batch's pages read from the database a chunk at a time (their failed checks, and the
  // findings that name them), then the URLs only findings name (a link target never fetched)
  for (let after = 0; ; ) {
    const pages = await pagesAfter(trx, batchId, after, CHUNK);
    const chunk: string[] = [];
    const current: Current[] = [];
    for (const page of pages) {
      const { url } = page;
      chunk.push(url);
      // an audited page's checks: its facts parsed for them, then let go
      const facts =
        page.state === 'done' && page.facts !== null ? (JSON.parse(page.facts) as PageFacts) : null;
      for (const c of facts?.failed ?? [])
        current.push({
          kind: 'check',
          issueId: c.id,
          url,
          priority: c.priority,
          title: c.title,
          detail: null,
          rule: null,
        });
      for (const c of facts?.ignored ?? [])
        current.push({
          kind: 'check',
          issueId: c.id,
          url,
          priority: c.priority,
          title: c.title,
          detail: null,
          rule: { id: c.rule_id, reason: c.reason },
        });
      current.push(...(findingIssues.get(url) ?? []));
      findingIssues.delete(url);
    }
    await write(chunk, current);
    if (pages.length < CHUNK) break;
    after = pages[pages.length - 1]!.id;
  }
  const rest = [...findingIssues.keys()];
  for (let i = 0; i < rest.length; i += CHUNK) {
    const chunk = rest.slice(i, i + CHUNK);
    await write(
      chunk,
      chunk.flatMap((url) => findingIssues.get(url)!),
    );
  }
  await closeIssues(trx, userId, project, batchId, now);

  const fixed = new Map<string, { url: string; detail?: string }[]>();
  for (const r of await fixedFindingPages(trx, userId, project, batchId)) {
    const list = fixed.get(r.issueId) ?? [];
    list.push(r.detail === null ? { url: r.url } : { url: r.url, detail: r.detail });
    fixed.set(r.issueId, list);
  }
  return findings.map((f) => ({
    ...f,
    pages: f.pages.map((p) => {
      const s = findingStates.get(keyOf('finding', f.id, p.url));
      return s ? { ...p, state: s.state, since_batch_id: s.since } : p;
    }),
    ...(fixed.has(f.id) ? { fixed: fixed.get(f.id)! } : {}),
  }));
}
