// The batch's check step (docs/sites.md "Links and resources checked"): once every page is done
// and before its findings (end.ts), the URLs the crawl did not request are asked once each —
// internal link targets outside the crawl's bounds, the pages' resources, the fonts the site's
// stylesheets name, and (check_external) the links to other sites and resources on other hosts.
// At most max_site_checks of the site's URLs and max_external_checks of other hosts' (in
// check-targets.ts's order); the others are stored `unchecked`.
//
// Two passes: the stylesheets first — each a GET (1 MB at most) whose @font-face fonts are read
// (src/crawl/css-refs.ts) and stored at once as `pending`, with the stylesheets that name them;
// a page's stylesheet's @imports likewise, then read in turn (one level: theirs are not) —
// then every other URL, the fonts among them (each once per batch): HEAD, and GET when HEAD is
// refused (405, 501). Every request goes through the guarded fetcher (d.fetchFile: the address
// guard, the time limit), one at a time per host with the batch's delay between two requests to
// a host, a few hosts at once. robots.txt is obeyed: the site's as the batch read it, another
// host's read once per run (the first request to it); a URL it disallows is recorded
// `unchecked`, never requested.
//
// The batch's time budget: no request starts after the later of its deadline (batches.deadline_at)
// and this run's start + a grace (CHECK_GRACE_SHARE of the budget, at most CHECK_GRACE_MAX_MS);
// the URLs not asked then are stored `unchecked` ("Not requested: the batch reached its time
// budget."), and the batch ends.
//
// Resumable: each answer is stored as soon as it is in (batch_checks); a step killed midway
// (its job is retried) asks only the URLs not stored yet (a stylesheet is stored after its
// fonts, so its fonts are known without reading it again). A batch cancelled meanwhile stops it.
import { ConnectionPool } from '../../analyzer/fetch/index.js';
import { parseRobots, type Robots } from '../../analyzer/robots.js';
import { stylesheetRefs } from '../../crawl/css-refs.js';
import { onSite } from '../../crawl/url.js';
import {
  insertChecks,
  setCheckVia,
  storedChecks,
  type CheckRow,
} from '../../store/batch-checks.repository.js';
import { findBatch, findSiteFiles } from '../../store/batches.repository.js';
import { sharedNow, sleep } from '../../timers.js';
import { optionsOf, type BatchDeps } from './deps.js';
import { ROBOTS_CAP, STYLESHEET_CAP, verdictOf } from './check-rules.js';
import { capOrder, targetsOf, type Target } from './check-targets.js';
import { siteHeadersOf } from './request-settings.js';

/** hosts checked at once (each one request at a time) */
export const CHECK_HOSTS_AT_ONCE = 4;
/** the check step's grace past the batch's deadline: this share of the time budget… */
export const CHECK_GRACE_SHARE = 0.1;
/** …and at most this long */
export const CHECK_GRACE_MAX_MS = 10 * 60_000;
/** a font's row keeps at most this many stylesheets that name it */
const MAX_VIA = 100;
/** how often a running check step looks whether its batch was cancelled */
const CANCEL_POLL_MS = 1000;

export const BUDGET_REASON = 'Not requested: the batch reached its time budget.';

/** When a check step started at `startedAt` stops requesting (docs/sites.md). */
export const checksStopAt = (deadlineAt: number, startedAt: number, budgetMs: number): number =>
  Math.max(deadlineAt, startedAt + Math.min(budgetMs * CHECK_GRACE_SHARE, CHECK_GRACE_MAX_MS));

/** A host's robots.txt, read through the guarded fetcher (anything but a 2xx: every URL allowed). */
async function robotsOf(
  d: BatchDeps,
  origin: string,
  signal: AbortSignal,
  connections: ConnectionPool,
): Promise<Robots> {
  const url = `${origin}/robots.txt`;
  const r = await d.fetchFile(url, { ...d.fetchOptions(), cap: ROBOTS_CAP, signal, connections });
  const ok = r.status !== null && r.status >= 200 && r.status < 300;
  return parseRobots(url, ok ? r.body : null);
}

const unchecked = (t: Target, why: string): CheckRow => ({
  ...t,
  verdict: 'unchecked',
  status: null,
  error: why,
  redirectTo: null,
});

/**
 * Checks what the batch's pages link to and load (see the head of this file). Returns when
 * every URL is stored, or at once when the batch is no longer running (cancelled).
 */
export async function checkBatch(d: BatchDeps, batchId: number, jobSignal?: AbortSignal): Promise<void> {
  const { db } = d.ctx;
  const b = await findBatch(db, batchId, null);
  if (!b || b.status !== 'running') return;
  // the operator turned the checks off (PAGEGRADE_LINK_CHECKS=0): the findings judge the crawled pages only
  if (d.ctx.config.linkChecks === false) return;
  const stopAt = checksStopAt(b.deadlineAt, sharedNow(), d.budgetMs);
  const timeUp = () => sharedNow() >= stopAt;
  const options = optionsOf(b);
  const targets = await targetsOf(d, b);
  const stored = await storedChecks(db, b.id);
  const done = (url: string) => {
    const s = stored.get(url);
    return s !== undefined && s.verdict !== 'pending';
  };
  const siteFiles = await findSiteFiles(db, b.id);
  const siteOrigin = new URL(b.url).origin;
  const host = new URL(b.url).hostname;
  const siteRobots = parseRobots(`${siteOrigin}/robots.txt`, siteFiles?.robotsTxt ?? null);
  const { siteHeaders } = await siteHeadersOf(d, b);
  const known = new Map([...targets.site, ...targets.other].map((t) => [t.url, t]));
  // a font is checked where its stylesheet's page's URLs are: on the site, or with check_external
  const wanted = (url: string) => !targets.pages.has(url) && (onSite(url, host) || options.checkExternal);

  const store = async (rows: CheckRow[]) => {
    if (rows.length === 0) return;
    await insertChecks(db, b.id, rows);
    for (const r of rows) {
      const was = stored.get(r.url);
      stored.set(r.url, { kind: was?.kind ?? r.kind, verdict: r.verdict, via: was?.via ?? null });
    }
  };
  // the fonts and @imports the stylesheets name (their rows' via), written one after another
  const fonts = new Map<string, string[]>();
  const imports = new Set<string>();
  for (const [url, s] of stored)
    if (s.via) {
      fonts.set(url, [...s.via]);
      if (s.kind === 'stylesheet') imports.add(url);
    }
  let writes: Promise<void> = Promise.resolve();
  const serial = (write: () => Promise<void>): Promise<void> => {
    const next = writes.then(write);
    writes = next.catch(() => undefined);
    return next;
  };
  const fontFound = async (font: string, sheet: string, named: 'font' | 'stylesheet' = 'font') => {
    const list = fonts.get(font) ?? [];
    if (!wanted(font) || list.includes(sheet) || list.length >= MAX_VIA) return;
    const via = [...list, sheet].sort();
    fonts.set(font, via);
    if (named === 'stylesheet') imports.add(font);
    const kind = known.get(font)?.kind ?? named;
    if (stored.has(font)) return serial(() => setCheckVia(db, b.id, font, via));
    stored.set(font, { kind, verdict: 'pending', via });
    return serial(() =>
      insertChecks(db, b.id, [
        { url: font, kind, verdict: 'pending', status: null, error: null, redirectTo: null, via },
      ]),
    );
  };

  // one kept connection per host, reused by its requests (one at a time per host): a host's
  // checks cost one TCP (and TLS) handshake, not one a URL; the address guard checks each new one
  const connections = new ConnectionPool({
    perOrigin: 1,
    timeoutMs: d.fetchOptions().timeoutMs,
    maxOrigins: CHECK_HOSTS_AT_ONCE * 4,
  });

  // stop: the job's signal (shutdown, lease lost), or the batch cancelled
  const stop = new AbortController();
  const signal = jobSignal ? AbortSignal.any([stop.signal, jobSignal]) : stop.signal;
  const poll = setInterval(() => {
    void findBatch(db, b.id, null).then(
      (now) => {
        if (!now || now.status !== 'running') stop.abort(new Error('The batch is no longer running.'));
      },
      () => undefined,
    );
  }, CANCEL_POLL_MS);

  // per host, across both passes: the end of its last request, and its robots.txt
  const hosts = new Map<string, { last: number; robots: Robots | null }>();
  const delay = b.delayMs;
  async function pause(h: { last: number }) {
    const wait = h.last + delay - Date.now();
    if (h.last > 0 && wait > 0) await sleep(wait, signal);
  }
  /** one request to t (after the host's delay), or null when the step must stop first */
  async function ask(t: Target, method: 'HEAD' | 'GET', h: { last: number }) {
    await pause(h);
    if (signal.aborted || timeUp()) return null;
    const isSite = onSite(t.url, host);
    const r = await d.fetchFile(t.url, {
      ...d.fetchOptions(),
      method,
      // a stylesheet's GET reads its text (its fonts); any other request only its headers
      ...(method === 'GET' && (targets.stylesheets.has(t.url) || imports.has(t.url))
        ? { cap: STYLESHEET_CAP }
        : { cap: 0, headersOnly: true }),
      signal,
      connections,
      ...(isSite && siteHeaders ? { siteHeaders } : {}),
      // a redirect to a URL of the site robots.txt disallows is not followed
      redirectCheck: (next) =>
        onSite(next, host) && !siteRobots.allowed(next) ? 'robots.txt disallows it' : null,
    });
    h.last = Date.now();
    return r;
  }

  /**
   * One target's check (a stylesheet: GET, its fonts, and a page's stylesheet its @imports too);
   * false when the step must stop.
   */
  async function checkOne(
    t: Target,
    h: { last: number },
    asSheet: 'page' | 'import' | null,
  ): Promise<boolean> {
    const isSite = onSite(t.url, host);
    let r = await ask(t, asSheet ? 'GET' : 'HEAD', h);
    if (r && !asSheet && (r.status === 405 || r.status === 501)) r = await ask(t, 'GET', h);
    if (r === null || signal.aborted) return false;
    if (asSheet && r.status !== null && r.status >= 200 && r.status < 300) {
      // what it names is stored before it: a step taken up again knows it without reading it again
      const refs = stylesheetRefs(r.body, r.finalUrl);
      for (const font of refs.fonts) await fontFound(font, t.url);
      // @import: one level (an imported stylesheet's own @imports are not followed)
      if (asSheet === 'page') for (const sheet of refs.imports) await fontFound(sheet, t.url, 'stylesheet');
    }
    await store([verdictOf(t, r, !isSite, d.fetchOptions().timeoutMs)]);
    return true;
  }

  /** Checks the targets not stored yet, by host (each one at a time), until done, stopped or out of time. */
  async function pass(list: readonly Target[], asSheet: 'page' | 'import' | null): Promise<void> {
    const byHost = new Map<string, Target[]>();
    for (const t of list) {
      if (done(t.url)) continue;
      const origin = new URL(t.url).origin;
      const l = byHost.get(origin);
      if (l) l.push(t);
      else byHost.set(origin, [t]);
    }
    const queue = [...byHost.entries()];
    const worker = async () => {
      while (queue.length > 0 && !signal.aborted && !timeUp()) {
        const [origin, todo] = queue.shift()!;
        let h = hosts.get(origin);
        if (!h) {
          h = { last: 0, robots: null };
          hosts.set(origin, h);
        }
        // the site's URLs follow the batch's robots.txt (as its pages did); another host's its own
        if (h.robots === null) {
          if (onSite(origin, host)) h.robots = siteRobots;
          else {
            await pause(h);
            if (signal.aborted || timeUp()) return;
            h.robots = await robotsOf(d, origin, signal, connections);
            h.last = Date.now();
          }
        }
        for (const t of todo) {
          if (signal.aborted || timeUp()) return;
          if (!h.robots.allowed(t.url))
            await store([unchecked(t, 'Not requested: disallowed by robots.txt.')]);
          else if (!(await checkOne(t, h, asSheet))) return;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(CHECK_HOSTS_AT_ONCE, queue.length) }, worker));
  }

  /** the two passes; false: stopped (the batch cancelled, or the job's signal) */
  async function run(): Promise<boolean> {
    const siteCap = options.maxSiteChecks;
    const externalCap = options.maxExternalChecks;
    // 1. the stylesheets the caps keep (they come first in their order), each read for its
    // fonts and @imports; then the @imported stylesheets the caps keep (next in the order)
    const isSheet = (t: Target) => targets.stylesheets.has(t.url) || imports.has(t.url);
    const isPageSheet = (t: Target) => targets.stylesheets.has(t.url);
    const external = options.checkExternal ? capOrder(targets.other, targets.stylesheets) : [];
    const sheets = [
      ...capOrder(targets.site, targets.stylesheets).slice(0, siteCap).filter(isPageSheet),
      ...external.slice(0, externalCap).filter(isPageSheet),
    ];
    await pass(sheets, 'page');
    await writes;
    if (signal.aborted) return false;
    const imported = [...imports]
      .filter((u) => !known.has(u) && wanted(u))
      .map((url): Target => ({ url, kind: 'stylesheet' }));
    const importsOf = (list: Target[], on: boolean, cap: number) =>
      capOrder([...list, ...imported.filter((t) => onSite(t.url, host) === on)], targets.stylesheets, imports)
        .slice(0, cap)
        .filter((t) => imports.has(t.url) && !targets.stylesheets.has(t.url));
    const importedSheets = [
      ...importsOf(targets.site, true, siteCap),
      ...(options.checkExternal ? importsOf(targets.other, false, externalCap) : []),
    ];
    await pass(importedSheets, 'import');
    await writes;
    if (signal.aborted) return false;

    // 2. everything, the fonts found among the resources; over a cap: not requested
    const found = [...fonts.keys()]
      .filter((u) => !known.has(u) && wanted(u))
      .map((url): Target => ({ url, kind: imports.has(url) ? 'stylesheet' : 'font' }));
    const site = capOrder(
      [...targets.site, ...found.filter((t) => onSite(t.url, host))],
      targets.stylesheets,
      imports,
    );
    const other = options.checkExternal
      ? capOrder(
          [...targets.other, ...found.filter((t) => !onSite(t.url, host))],
          targets.stylesheets,
          imports,
        )
      : [];
    const over = (list: Target[], cap: number, setting: string) =>
      list
        .slice(cap)
        .filter((t) => !done(t.url))
        .map((t) => unchecked(t, `Not requested: over the batch's ${setting} (${cap}).`));
    await store([
      ...over(site, siteCap, 'max_site_checks'),
      ...over(other, externalCap, 'max_external_checks'),
    ]);
    const queue = [...site.slice(0, siteCap), ...other.slice(0, externalCap)];
    // a stylesheet not read in the first pass (out of time) is not asked again here
    await pass(
      queue.filter((t) => !isSheet(t)),
      null,
    );
    if (signal.aborted) return false;

    // out of time: what was not asked is stored as such, and the batch ends
    if (timeUp()) {
      const left = new Map(
        [...sheets, ...importedSheets, ...queue].filter((t) => !done(t.url)).map((t) => [t.url, t]),
      );
      await store([...left.values()].map((t) => unchecked(t, BUDGET_REASON)));
    }
    return true;
  }

  try {
    await run();
  } finally {
    clearInterval(poll);
    await writes;
    await connections.close();
  }
  if (jobSignal?.aborted) throw jobSignal.reason ?? new Error('aborted');
}
