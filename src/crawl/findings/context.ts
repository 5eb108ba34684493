// The batch as the finding rules read it (FindingContext), and the helpers two rules share.
import { CompactFacts } from '../compact.js';
import { DEFAULT_FINDING_SETTINGS, type FindingSettings } from '../defaults.js';
import type { CheckedUrl, DonePage, FindingContext, FindingPage, PageForFindings } from './types.js';

export function findingContext(
  pages: PageForFindings[],
  startUrl: string,
  settings: FindingSettings = DEFAULT_FINDING_SETTINGS,
): FindingContext {
  const done = pages.filter((p): p is DonePage => p.state === 'done' && p.facts !== null);
  const linkedTo = new Set<string>();
  const link = (target: string) => void linkedTo.add(target);
  for (const p of done) forEachTarget(p, link);
  return {
    pages,
    byUrl: new Map(pages.map((p) => [p.url, p])),
    done,
    startUrl,
    settings,
    hasSitemap: pages.some((p) => p.inSitemap),
    linkedTo,
  };
}

/** A page's internal links (followed, then nofollow), its links to itself aside. */
export function linkTargets(p: DonePage): string[] {
  // a batch's end holds its pages compact: the targets read from the link ids at once
  if (p.facts instanceof CompactFacts) return p.facts.targets(p.url);
  return [...p.facts.links, ...p.facts.nofollow].filter((target) => target !== p.url);
}

/**
 * Calls `fn` with each of linkTargets(p), in its order, without making their array: the rules
 * walk every page's links, and at a batch's end (pages compact) the ids are read in place — an
 * array of strings a page for each rule was most of the end's garbage.
 */
export function forEachTarget(p: DonePage, fn: (target: string) => void): void {
  if (p.facts instanceof CompactFacts) return p.facts.forEachTarget(p.url, fn);
  for (const target of p.facts.links) if (target !== p.url) fn(target);
  for (const target of p.facts.nofollow) if (target !== p.url) fn(target);
}

/** Calls `fn` with each of the page's followed links (`facts.links`, its own URL included), in order. */
export function forEachLink(p: DonePage, fn: (target: string) => void): void {
  if (p.facts instanceof CompactFacts) return p.facts.forEachLink(fn);
  for (const target of p.facts.links) fn(target);
}

/** Whether linkTargets(p) has any. */
export function hasTargets(p: DonePage): boolean {
  if (p.facts instanceof CompactFacts) return p.facts.hasTargets(p.url);
  return p.facts.links.some((t) => t !== p.url) || p.facts.nofollow.some((t) => t !== p.url);
}

/** The target answered 4xx/5xx or could not be fetched. */
export const isBroken = (t: PageForFindings): boolean =>
  t.state === 'failed' && (t.statusCode === null || t.statusCode >= 400);

/** The request for the target was redirected. */
export const isRedirected = (t: PageForFindings): boolean =>
  (t.finalUrl !== null && t.finalUrl !== t.url) || (t.facts?.redirected ?? false);

/** The audited pages that share a title (or description) with another, each with the value. */
export function duplicates(ctx: FindingContext, key: 'title' | 'description'): FindingPage[] {
  const groups = new Map<string, string[]>();
  for (const p of ctx.done) {
    const v = p.facts[key];
    if (v === null || v === '') continue;
    const g = groups.get(v);
    if (g) g.push(p.url);
    else groups.set(v, [p.url]);
  }
  const out: FindingPage[] = [];
  for (const [value, urls] of groups)
    if (urls.length > 1) for (const url of urls) out.push({ url, detail: value });
  return out;
}

/** Pages grouped by a key (null: left out), in page order; only groups of two pages or more. */
export function groupsOf<T>(items: readonly T[], key: (item: T) => string | null): T[][] {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    if (k === null) continue;
    const g = groups.get(k);
    if (g) g.push(item);
    else groups.set(k, [item]);
  }
  return [...groups.values()].filter((g) => g.length > 1);
}

/** The pages of a group, each with the first other page of it (and how many more). */
export function sameAs(group: readonly DonePage[], what: string): FindingPage[] {
  return group.map((p) => {
    const others = group.filter((o) => o !== p);
    const more = others.length > 1 ? ` and ${others.length - 1} more` : '';
    return { url: p.url, detail: `${what} ${others[0]!.url}${more}` };
  });
}

/**
 * The error a batch records on a URL it did not request because robots.txt disallows it
 * (services/batches: discovery.ts and frontier.ts write it; the batch keeps such URLs as
 * skipped pages, linked or listed in the sitemap).
 */
const ROBOTS_DISALLOWED = 'Not requested: disallowed by robots.txt.';

export const isRobotsBlocked = (p: PageForFindings): boolean =>
  p.state === 'skipped' && p.error === ROBOTS_DISALLOWED;

/** A text compared as people read it: whitespace collapsed, case ignored. */
export const loose = (s: string): string => s.replace(/\s+/g, ' ').trim().toLowerCase();

/** The page's canonical target, when it names another URL than the page's own. */
export const canonicalElsewhere = (p: DonePage): string | null =>
  p.facts.canonical !== null && p.facts.canonical !== p.url ? p.facts.canonical : null;

/** What a checked URL answered, as a finding's detail names it (`404`, `no answer within 10 s`). */
export const answerOf = (c: CheckedUrl): string =>
  c.status !== null ? String(c.status) : (c.error ?? 'failed');

// The links to other sites (check_external): each (page, link) once, judged by the link's check.
/** The pages' external links whose check says `keep`, each with its detail. */
export function externalLinks(
  ctx: FindingContext,
  keep: (c: CheckedUrl) => boolean,
  detail: (target: string, c: CheckedUrl) => string,
): FindingPage[] {
  const out: FindingPage[] = [];
  for (const { source, target } of ctx.graph?.external ?? []) {
    const c = ctx.graph?.checks?.get(target);
    if (c && keep(c)) out.push({ url: source, detail: detail(target, c) });
  }
  return out;
}

export const answer = (target: string, c: CheckedUrl): string => `${target} (${answerOf(c)})`;

/** What a page's stylesheet makes a browser load (a font, an @imported stylesheet), and how. */
export interface SheetLoad {
  url: string;
  check: CheckedUrl;
  /** font or stylesheet */
  kind: string;
  /** "named in S", "imported by S", "named in I, imported by S" */
  how: string;
}

/**
 * What each stylesheet makes a browser load, from the checks' `via` (services/batches/checks.ts
 * reads the stylesheets): its @font-face fonts, its @imports and their fonts (one level).
 */
export function sheetLoads(ctx: FindingContext): (sheet: string) => SheetLoad[] {
  const named = new Map<string, { url: string; check: CheckedUrl }[]>();
  for (const [url, check] of ctx.graph?.checks ?? [])
    for (const sheet of check.via ?? []) {
      const list = named.get(sheet);
      if (list) list.push({ url, check });
      else named.set(sheet, [{ url, check }]);
    }
  // a URL named by a stylesheet that is also a page's resource: its kind there (a page's stylesheet @imported)
  const pageKind = new Map<string, string>();
  if (named.size > 0)
    for (const p of ctx.done) for (const r of p.facts.resources ?? []) pageKind.set(r.url, r.kind);
  const kindOf = (c: { url: string; check: CheckedUrl }) =>
    c.check.kind === 'font' || c.check.kind === 'stylesheet' ? c.check.kind : (pageKind.get(c.url) ?? 'font');
  return (sheet) => {
    const out: SheetLoad[] = [];
    for (const c of named.get(sheet) ?? []) {
      const kind = kindOf(c);
      if (kind !== 'stylesheet') {
        out.push({ ...c, kind, how: `named in ${sheet}` });
        continue;
      }
      out.push({ ...c, kind, how: `imported by ${sheet}` });
      for (const f of named.get(c.url) ?? [])
        if (kindOf(f) !== 'stylesheet')
          out.push({ ...f, kind: kindOf(f), how: `named in ${c.url}, imported by ${sheet}` });
    }
    return out;
  };
}
