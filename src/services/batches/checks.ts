// The batch's check step (docs/sites.md "Links and resources checked"): once every page is done
// and before its findings (end.ts), the URLs the crawl did not request are asked once each —
// internal link targets outside the crawl's bounds, the pages' resources, and (check_external)
// the links to other sites and resources on other hosts, at most max_external_checks of those.
// Every request goes through the guarded fetcher (d.fetchFile: the address guard, the time
// limit), HEAD first and GET when HEAD is refused (405, 501), one at a time per host with the
// batch's delay between two requests to a host, a few hosts at once. robots.txt is obeyed: the
// site's as the batch read it, another host's read once per run (the first request to it); a
// URL it disallows is recorded `unchecked`, never requested.
//
// Resumable: each answer is stored as soon as it is in (batch_checks); a step killed midway
// (its job is retried) asks only the URLs not stored yet. A batch cancelled meanwhile stops it.
import { parseRobots, type Robots } from '../../analyzer/robots.js';
import type { PageFacts } from '../../crawl/facts.js';
import { onSite } from '../../crawl/url.js';
import {
  checkedUrls,
  externalTargets,
  insertCheck,
  type CheckKind,
  type CheckRow,
} from '../../store/batch-checks.repository.js';
import { findBatch, findSiteFiles, pagesAfter, type BatchRow } from '../../store/batches.repository.js';
import { sleep } from '../../timers.js';
import { optionsOf, type BatchDeps } from './deps.js';
import { ROBOTS_CAP, verdictOf } from './check-rules.js';
import { siteHeadersOf } from './request-settings.js';

/** hosts checked at once (each one request at a time) */
export const CHECK_HOSTS_AT_ONCE = 4;
/** how often a running check step looks whether its batch was cancelled */
const CANCEL_POLL_MS = 1000;
const PAGE_CHUNK = 1000;

interface Target {
  url: string;
  kind: CheckKind;
}

/** The URLs the batch's pages link to or load that are not pages of the batch, each once. */
async function targetsOf(d: BatchDeps, b: BatchRow): Promise<{ site: Target[]; other: Target[] }> {
  const host = new URL(b.url).hostname;
  const pages = new Set<string>();
  const found = new Map<string, CheckKind>();
  for (let after = 0; ;) {
    const rows = await pagesAfter(d.ctx.db, b.id, after, PAGE_CHUNK);
    for (const r of rows) {
      pages.add(r.url);
      if (r.state !== 'done' || r.facts === null) continue;
      const f = JSON.parse(r.facts) as PageFacts;
      // followed links only: a nofollow target is never requested (as the crawl does not follow it)
      for (const u of f.links) if (!found.has(u)) found.set(u, 'internal');
      for (const res of f.resources ?? []) if (!found.has(res.url)) found.set(res.url, 'resource');
    }
    if (rows.length < PAGE_CHUNK) break;
    after = rows[rows.length - 1]!.id;
  }
  const site: Target[] = [];
  const other: Target[] = [];
  for (const [url, kind] of found) {
    if (pages.has(url)) continue;
    (onSite(url, host) ? site : other).push({ url, kind });
  }
  if (optionsOf(b).checkExternal)
    for (const url of await externalTargets(d.ctx.db, b.id))
      if (!found.has(url) && !pages.has(url)) other.push({ url, kind: 'external' });
  // the cap keeps the same URLs whatever the retries: the first in URL order
  other.sort((x, y) => (x.url < y.url ? -1 : x.url > y.url ? 1 : 0));
  return { site, other };
}

/** A host's robots.txt, read through the guarded fetcher (anything but a 2xx: every URL allowed). */
async function robotsOf(d: BatchDeps, origin: string, signal: AbortSignal): Promise<Robots> {
  const url = `${origin}/robots.txt`;
  const r = await d.fetchFile(url, { ...d.fetchOptions(), cap: ROBOTS_CAP, signal });
  const ok = r.status !== null && r.status >= 200 && r.status < 300;
  return parseRobots(url, ok ? r.body : null);
}

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
  const options = optionsOf(b);
  const { site, other } = await targetsOf(d, b);
  const done = await checkedUrls(db, b.id);
  const siteFiles = await findSiteFiles(db, b.id);
  const siteOrigin = new URL(b.url).origin;
  const siteRobots = parseRobots(`${siteOrigin}/robots.txt`, siteFiles?.robotsTxt ?? null);
  const request = await siteHeadersOf(d, b);
  const siteHeaders = request.siteHeaders;

  const store = (c: CheckRow) => insertCheck(db, b.id, c);
  const unchecked = (t: Target, why: string): CheckRow => ({
    ...t,
    verdict: 'unchecked',
    status: null,
    error: why,
    redirectTo: null,
  });

  // other hosts: only with check_external, at most max_external_checks URLs
  const external = options.checkExternal ? other : [];
  const queue = [...site, ...external.slice(0, options.maxExternalChecks)].filter((t) => !done.has(t.url));
  for (const t of external.slice(options.maxExternalChecks))
    if (!done.has(t.url))
      await store(
        unchecked(t, `Not requested: over the batch's max_external_checks (${options.maxExternalChecks}).`),
      );
  if (queue.length === 0) return;

  // stop: the job's signal (shutdown, lease lost), or the batch cancelled
  const stop = new AbortController();
  const signal = jobSignal ? AbortSignal.any([stop.signal, jobSignal]) : stop.signal;
  const poll = setInterval(() => {
    void findBatch(db, b.id, null).then(
      (now) => {
        if (!now || now.status !== 'running') {
          stop.abort(new Error('The batch is no longer running.'));
        }
      },
      () => undefined,
    );
  }, CANCEL_POLL_MS);

  const byHost = new Map<string, Target[]>();
  for (const t of queue) {
    const origin = new URL(t.url).origin;
    const list = byHost.get(origin);
    if (list) list.push(t);
    else byHost.set(origin, [t]);
  }
  const hosts = [...byHost.entries()];
  const delay = b.delayMs;

  const host = new URL(b.url).hostname;
  async function checkHost(origin: string, targets: Target[]): Promise<void> {
    // the delay runs from the end of the host's previous request (its answer, or its failure)
    let last = 0;
    const pause = async () => {
      const wait = last + delay - Date.now();
      if (last > 0 && wait > 0) await sleep(wait, signal);
    };
    const ended = <T>(r: T): T => {
      last = Date.now();
      return r;
    };
    // the site's URLs follow the batch's robots.txt (as its pages did); another host's its own
    let robots = siteRobots;
    if (!onSite(origin, host)) {
      await pause();
      robots = ended(await robotsOf(d, origin, signal));
    }
    for (const t of targets) {
      if (signal.aborted) return;
      const isSite = onSite(t.url, host);
      if (!robots.allowed(t.url)) {
        await store(unchecked(t, 'Not requested: disallowed by robots.txt.'));
        continue;
      }
      await pause();
      if (signal.aborted) return;
      const ask = async (method: 'HEAD' | 'GET') =>
        ended(
          await d.fetchFile(t.url, {
            ...d.fetchOptions(),
            method,
            cap: 0,
            headersOnly: true,
            signal,
            ...(isSite && siteHeaders ? { siteHeaders } : {}),
            // a redirect to a URL of the site robots.txt disallows is not followed
            redirectCheck: (next) =>
              onSite(next, host) && !siteRobots.allowed(next) ? 'robots.txt disallows it' : null,
          }),
        );
      let r = await ask('HEAD');
      if (r.status === 405 || r.status === 501) {
        await pause();
        if (signal.aborted) return;
        r = await ask('GET');
      }
      if (signal.aborted) return;
      await store(verdictOf(t, r, !isSite, d.fetchOptions().timeoutMs));
    }
  }

  try {
    let next = 0;
    const worker = async () => {
      while (next < hosts.length && !signal.aborted) {
        const [origin, targets] = hosts[next++]!;
        await checkHost(origin, targets);
      }
    };
    await Promise.all(Array.from({ length: Math.min(CHECK_HOSTS_AT_ONCE, hosts.length) }, worker));
  } finally {
    clearInterval(poll);
  }
  if (jobSignal?.aborted) throw jobSignal.reason ?? new Error('aborted');
}
