// Crawl compared with crawl (docs/sites.md, "Comparing crawls"): one pure function, diffCrawls,
// serves the API (GET /batches/{id}/diff, and the diff stored when a batch ends), the
// dashboard's compare view, the webhooks (batch.completed, batch.regressed) and `pagegrade crawl
// --baseline`. It reads a compact digest per page (pageDigest: no links, no facts) so that two
// 100,000-page crawls fit in a few tens of megabytes, and the two crawls' stored findings.
// Custom extraction: a key a page here, the values filled in after (src/crawl/diff-extracted.ts).
import { bandOf } from '../analyzer/scoring.js';
import type { Priority, ResultBand } from '../analyzer/types.js';
import type { PageFacts } from './facts.js';
import type { Finding } from './findings/index.js';
import type { FindingPage } from './findings/types.js';

export * from './diff-types.js';
import type {
  ChangeField,
  CheckRef,
  CheckTable,
  CrawlDiff,
  CrawlSide,
  DiffOptions,
  DiffSummary,
  FindingChange,
  PageChange,
  PageDigest,
  PageState,
  RegressionReason,
  SiteScore,
} from './diff-types.js';

const BAND_RANK: Record<ResultBand, number> = { bad: 0, decent: 1, good: 2 };

/**
 * A page's digest from its batch row and facts, or null when the crawl did not fetch it (a
 * page skipped by robots.txt, a limit or a cancel is no page of that crawl). Registers the
 * titles and priorities of its failed checks in `checks`.
 */
export function pageDigest(
  row: {
    url: string;
    state: string;
    statusCode: number | null;
    finalUrl: string | null;
    canonical: string | null;
    extracted?: string | null;
  },
  facts: DigestFacts | null,
  checks: CheckTable,
): PageDigest | null {
  const fetched =
    row.state === 'done' || row.state === 'failed' || (row.state === 'skipped' && row.statusCode !== null);
  if (!fetched) return null;
  const audited = row.state === 'done' && facts !== null;
  if (audited)
    for (const c of facts.failed)
      if (!checks.has(c.id)) checks.set(c.id, { title: c.title, priority: c.priority });
  return {
    url: row.url,
    status: row.statusCode,
    redirect: row.finalUrl !== null && row.finalUrl !== row.url && !audited ? row.finalUrl : null,
    audited,
    title: audited ? facts.title : null,
    canonical: audited ? row.canonical : null,
    noindex: audited ? facts.noindex : false,
    band: audited ? facts.result : null,
    score: audited ? facts.score : null,
    failed: audited ? [...new Set(facts.failed.map((c) => c.id))].sort().join(' ') : '',
    extracted: audited ? (row.extracted ?? null) : null,
  };
}

/** What a page's digest reads of its facts (pageDigest). */
export type DigestFacts = Pick<PageFacts, 'title' | 'noindex' | 'result' | 'score' | 'failed'>;

/**
 * An audited page's facts as its digest reads them, as text: stored with the page
 * (batch_pages.digest) when it is audited, so that a diff reads these few bytes instead of the
 * page's facts with their links. A JSON array: title, noindex (1/0), band, score, and each
 * failed check as [id, priority, title].
 */
export function factsDigest(f: DigestFacts): string {
  return JSON.stringify([
    f.title,
    f.noindex ? 1 : 0,
    f.result,
    f.score,
    f.failed.map((c) => [c.id, c.priority, c.title]),
  ]);
}

/** The facts a stored digest (factsDigest) holds, as pageDigest reads them. */
export function digestFacts(text: string): DigestFacts {
  const [title, noindex, result, score, failed] = JSON.parse(text) as [
    string | null,
    0 | 1,
    PageFacts['result'],
    number,
    [string, Priority, string][],
  ];
  return {
    title,
    noindex: noindex === 1,
    result,
    score,
    failed: failed.map(([id, priority, title]) => ({ id, priority, title })),
  };
}

/**
 * The site score, summed page by page: the mean of the audited pages' scores, rounded, banded
 * as a report's score is.
 */
function siteScoring(): { add(p: PageDigest): void; end(): SiteScore | null } {
  let total = 0;
  let n = 0;
  return {
    add(p) {
      if (p.audited && p.score !== null) {
        total += p.score;
        n++;
      }
    },
    end() {
      if (n === 0) return null;
      const score = Math.round(total / n);
      return { score, band: bandOf(score) };
    },
  };
}

/** The site score of a crawl's pages (siteScoring). */
export function siteScore(pages: Iterable<PageDigest>): SiteScore | null {
  const score = siteScoring();
  for (const p of pages) score.add(p);
  return score.end();
}

const stateOf = (p: PageDigest): PageState => ({
  status: p.status,
  redirect: p.redirect,
  title: p.title,
  canonical: p.canonical,
  noindex: p.noindex,
  band: p.band,
  score: p.score,
});

const byUrl = <T extends { url: string }>(a: T, b: T) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0);
const ids = (failed: string) => (failed === '' ? [] : failed.split(' '));
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** A failed check's reference with its title and priority from the table (the id and low: not in it). */
function refOf(r: CheckRef, checks: CheckTable): void {
  const c = checks.get(r.id);
  r.title = c?.title ?? r.id;
  r.priority = c?.priority ?? 'low';
}

function comparePages(a: PageDigest, b: PageDigest): PageChange | null {
  const changes: ChangeField[] = [];
  if (a.status !== b.status) changes.push('status');
  if (a.redirect !== b.redirect) changes.push('redirect');
  const both = a.audited && b.audited;
  let newChecks: CheckRef[] = [];
  let fixedChecks: CheckRef[] = [];
  if (both) {
    if (a.title !== b.title) changes.push('title');
    if (a.canonical !== b.canonical) changes.push('canonical');
    if (a.noindex !== b.noindex) changes.push('noindex');
    if (a.band !== b.band) changes.push('band');
    if (a.score !== b.score) changes.push('score');
    if (a.failed !== b.failed) {
      const before = new Set(ids(a.failed));
      const after = new Set(ids(b.failed));
      // title and priority: refOf, once every page is read
      const ref = (id: string): CheckRef => ({ id, title: id, priority: 'low' });
      newChecks = [...after].filter((id) => !before.has(id)).map(ref);
      fixedChecks = [...before].filter((id) => !after.has(id)).map(ref);
      if (newChecks.length + fixedChecks.length > 0) changes.push('checks');
    }
    if (a.extracted !== null && b.extracted !== null && a.extracted !== b.extracted)
      changes.push('extracted');
  } else if (a.audited !== b.audited) {
    // audited on one side only: its band (and score) appeared or went
    changes.push('band');
  }
  if (changes.length === 0) return null;
  return {
    url: b.url,
    changes,
    before: stateOf(a),
    after: stateOf(b),
    scoreDelta: both && a.score !== null && b.score !== null ? b.score - a.score : null,
    checks: { new: newChecks, fixed: fixedChecks },
    extracted: [],
  };
}

const pageKey = (p: FindingPage) => `${p.url}\u0000${p.detail ?? ''}`;

function compareFindings(before: Finding[], after: Finding[]): FindingChange[] {
  const prev = new Map(before.map((f) => [f.id, f]));
  const order = [
    ...after.map((f) => f.id),
    ...before.map((f) => f.id).filter((id) => !after.some((f) => f.id === id)),
  ];
  const out: FindingChange[] = [];
  for (const id of order) {
    const a = prev.get(id);
    const b = after.find((f) => f.id === id);
    // a page as the diff names it: its URL and the finding's detail (a stored finding's pages
    // also carry their issue state across the project's crawls, which is not the diff's)
    const bare = (p: FindingPage): FindingPage => ({
      url: p.url,
      ...(p.detail !== undefined ? { detail: p.detail } : {}),
    });
    const was = (a?.pages ?? []).map(bare);
    const is = (b?.pages ?? []).map(bare);
    if (was.length === 0 && is.length === 0) continue;
    const wasKeys = new Set(was.map(pageKey));
    const isKeys = new Set(is.map(pageKey));
    const meta = (b ?? a)!;
    out.push({
      id,
      title: meta.title,
      priority: meta.priority,
      state: was.length === 0 ? 'new' : is.length === 0 ? 'fixed' : 'persisting',
      pages: is.length === 0 ? was : is,
      newPages: is.filter((p) => !wasKeys.has(pageKey(p))),
      fixedPages: was.filter((p) => !isKeys.has(pageKey(p))),
    });
  }
  return out;
}

/**
 * Compares two crawls of a project (`from` null: nothing to compare with — the diff says so
 * and lists nothing). Pages are matched by URL; the lists are in URL order.
 */
export function diffCrawls(
  from: CrawlSide | null,
  to: CrawlSide,
  checks: CheckTable,
  options: DiffOptions,
): CrawlDiff {
  const pages = pagesDiff(from === null ? null : earlierPages(from.pages));
  for (const p of to.pages) pages.add(p);
  return pages.end(from, to, checks, options);
}

/** The earlier crawl's pages by URL, with their site score (pagesDiff's first side). */
export interface EarlierPages {
  pages: Map<string, PageDigest>;
  /** the pages read (summary.pages.before) */
  count: number;
  site: SiteScore | null;
}

/** A crawl's pages as pagesDiff compares the later crawl's with them (used up by one pagesDiff). */
export function earlierPages(pages: Iterable<PageDigest>): EarlierPages {
  const map = new Map<string, PageDigest>();
  const score = siteScoring();
  let count = 0;
  for (const p of pages) {
    map.set(p.url, p);
    score.add(p);
    count++;
  }
  return { pages: map, count, site: score.end() };
}

/** The later crawl's pages compared one at a time (pagesDiff), then the diff made (end). */
export interface PagesDiff {
  /** one page of the later crawl (each URL once, in any order): compared, then not held */
  add(page: PageDigest): void;
  /**
   * The diff: `from` and `to` name the crawls and give their findings (their `pages` are not
   * read again: those added are); `checks` the failed checks' titles and priorities.
   */
  end(
    from: Omit<CrawlSide, 'pages'> | null,
    to: Omit<CrawlSide, 'pages'>,
    checks: CheckTable,
    options: DiffOptions,
  ): CrawlDiff;
}

/**
 * The diff of a crawl with an earlier one (`earlier`: its pages, or null: none to compare
 * with) made as the later crawl's pages come, so that only the earlier crawl's pages and the
 * differences are held: the later crawl's pages can be read in chunks and let go. The same
 * diff as diffCrawls with all the pages at once.
 */
/** The pages' summary of a diff with nothing counted yet but the two crawls' sizes. */
const pagesSummary = (before: number, after: number): DiffSummary['pages'] => ({
  before,
  after,
  added: 0,
  removed: 0,
  changed: 0,
  compared: 0,
  bandsDropped: 0,
  bandsRaised: 0,
  newlyNon200: 0,
  newlyNoindex: 0,
});

export function pagesDiff(earlier: EarlierPages | null): PagesDiff {
  const after = siteScoring();
  const s = pagesSummary(earlier?.count ?? 0, 0);
  const added: (PageState & { url: string })[] = [];
  const changed: PageChange[] = [];
  const checkCount = { new: 0, fixed: 0 };
  let extractedChanged = 0;
  return {
    add(b) {
      s.after++;
      after.add(b);
      if (earlier === null) return;
      const a = earlier.pages.get(b.url);
      if (a === undefined) {
        added.push({ url: b.url, ...stateOf(b) });
        return;
      }
      earlier.pages.delete(b.url);
      if (a.audited && b.audited) {
        s.compared++;
        if (BAND_RANK[b.band!] < BAND_RANK[a.band!]) s.bandsDropped++;
        if (BAND_RANK[b.band!] > BAND_RANK[a.band!]) s.bandsRaised++;
        if (!a.noindex && b.noindex) s.newlyNoindex++;
      }
      if (a.status === 200 && b.status !== 200) s.newlyNon200++;
      const change = comparePages(a, b);
      if (change) {
        changed.push(change);
        checkCount.new += change.checks.new.length;
        checkCount.fixed += change.checks.fixed.length;
        if (change.changes.includes('extracted')) extractedChanged++;
      }
    },
    end(from, to, checks, options) {
      if (earlier === null || from === null) return noDiff(to, s.after, after.end());
      const summary: DiffSummary = {
        pages: s,
        findings: { new: 0, persisting: 0, fixed: 0 },
        checks: checkCount,
        extracted: { names: [...(options.extracted ?? [])], changed: extractedChanged },
        site: { before: earlier.site, after: after.end() },
      };
      const removed = [...earlier.pages.values()].map((a) => ({ url: a.url, ...stateOf(a) }));
      earlier.pages.clear();
      // the failed checks' titles and priorities, once both crawls' pages are read
      for (const c of changed) for (const r of [...c.checks.new, ...c.checks.fixed]) refOf(r, checks);
      const diff: CrawlDiff = {
        from: { id: from.id, finishedAt: from.finishedAt },
        to: { id: to.id, finishedAt: to.finishedAt },
        summary,
        regressed: false,
        reasons: [],
        pages: { added: added.sort(byUrl), removed: removed.sort(byUrl), changed: changed.sort(byUrl) },
        findings: [],
      };
      s.added = added.length;
      s.removed = removed.length;
      s.changed = changed.length;

      diff.findings = compareFindings(from.findings, to.findings);
      for (const f of diff.findings) summary.findings[f.state]++;

      // a finding the earlier crawl has no entry for at all did not exist then (every crawl lists
      // every rule, found or not: computeFindings): a rule added since, or a baseline of an earlier
      // release, is not a regression of the site
      const known = new Set(from.findings.map((f) => f.id));
      diff.reasons = regressions(
        summary,
        diff.findings.filter((f) => known.has(f.id)),
        options,
      );
      diff.regressed = diff.reasons.length > 0;
      return diff;
    },
  };
}

/** The diff of a crawl with none before it: its pages counted and its site score, nothing listed. */
function noDiff(to: Omit<CrawlSide, 'pages'>, pages: number, site: SiteScore | null): CrawlDiff {
  return {
    from: null,
    to: { id: to.id, finishedAt: to.finishedAt },
    summary: {
      pages: pagesSummary(0, pages),
      findings: { new: 0, persisting: 0, fixed: 0 },
      checks: { new: 0, fixed: 0 },
      extracted: { names: [], changed: 0 },
      site: { before: null, after: site },
    },
    regressed: false,
    reasons: [],
    pages: { added: [], removed: [], changed: [] },
    findings: [],
  };
}

/** Why the later crawl is a regression (docs/sites.md): none = it is not. */
function regressions(
  summary: DiffSummary,
  findings: FindingChange[],
  options: DiffOptions,
): RegressionReason[] {
  const out: RegressionReason[] = [];
  const { before, after } = summary.site;
  if (before !== null && after !== null && BAND_RANK[after.band] < BAND_RANK[before.band])
    out.push({
      code: 'site_band_dropped',
      message: `The site's band dropped from ${before.band} to ${after.band} (score ${before.score} → ${after.score}).`,
    });
  for (const f of findings)
    if (f.priority === 'high' && f.state !== 'fixed' && f.newPages.length > 0) {
      const pages = new Set(f.newPages.map((p) => p.url)).size;
      out.push({
        code: 'high_priority_finding',
        finding: f.id,
        count: pages,
        message: `${f.state === 'new' ? 'New' : 'More'}: ${f.title} (${f.id}) on ${plural(pages, 'page')} not concerned before.`,
      });
    }
  const p = summary.pages;
  if (p.newlyNon200 > 0)
    out.push({
      code: 'pages_non_200',
      count: p.newlyNon200,
      message: `${plural(p.newlyNon200, 'page')} answered 200 before and not now.`,
    });
  if (p.newlyNoindex > 0)
    out.push({
      code: 'pages_noindex',
      count: p.newlyNoindex,
      message: `${plural(p.newlyNoindex, 'page')} newly noindex.`,
    });
  if (p.compared > 0 && p.bandsDropped > 0 && p.bandsDropped / p.compared > options.pageShare)
    out.push({
      code: 'pages_band_dropped',
      count: p.bandsDropped,
      message: `${plural(p.bandsDropped, 'page')} of ${p.compared} dropped a band (more than ${Math.round(options.pageShare * 1000) / 10}%).`,
    });
  return out;
}
