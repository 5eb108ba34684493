// The shapes of the site-level findings (docs/sites.md): a rule reads the batch's pages through
// a FindingContext (context.ts) and names the pages it concerns.
import type { Priority } from '../../analyzer/types.js';
import type { PageFacts } from '../facts.js';
import type { SitemapFile } from '../sitemap.js';
import type { FindingSettings } from '../defaults.js';

export interface FindingPage {
  url: string;
  /** what is wrong with this page for the finding (the link target, the duplicated title …) */
  detail?: string;
  /**
   * an ended crawl of a project: the state across its crawls (docs/sites.md, "Issue
   * states and ignore rules") and the first crawl of the run of crawls it was seen in
   */
  state?: 'new' | 'persisting';
  since_batch_id?: number;
}

export interface Finding {
  id: string;
  /** how much it matters (high: broken links, a canonical template bug …) */
  priority: Priority;
  title: string;
  /** pages concerned */
  count: number;
  pages: FindingPage[];
  /** pages an ignore rule of the project covers: listed apart, not counted (src/crawl/ignore.ts) */
  ignored?: (FindingPage & { rule_id: string; reason: string })[];
  /** an ended crawl of a project: pages that had it in the project's previous crawl and no longer do */
  fixed?: FindingPage[];
}

export interface PageForFindings {
  url: string;
  state: 'queued' | 'fetching' | 'done' | 'failed' | 'skipped';
  inSitemap: boolean;
  statusCode: number | null;
  finalUrl: string | null;
  error: string | null;
  facts: PageFacts | null;
  /** link graph (issue 21 §1): the crawl depth (0: the start page); absent: not known */
  depth?: number;
  /** link graph: the URLs a redirect (or a redirect loop) went through, [first, …, last] */
  redirectPath?: string[] | null;
}

/** A page that was audited, with its facts. */
export type DonePage = PageForFindings & { facts: PageFacts };

/** What every rule reads, computed once per batch (context.ts). */
export interface FindingContext {
  /** every page of the batch, in the batch's order */
  pages: PageForFindings[];
  byUrl: ReadonlyMap<string, PageForFindings>;
  /** the pages audited (state done, with facts), in the batch's order */
  done: DonePage[];
  /** the batch's start URL */
  startUrl: string;
  /** some page of the batch came from the sitemap */
  hasSitemap: boolean;
  /** every URL an audited page links to (followed or nofollow), a page's links to itself aside */
  linkedTo: ReadonlySet<string>;
  /** link graph: what the batch's stored links say (read by the service from batch_links); absent: none stored */
  graph?: LinkGraphFacts;
  /** the batch's thresholds (thin_content, near_duplicates, deep_pages; the defaults for a batch made before them) */
  settings: FindingSettings;
  /** the sitemap files the batch's discovery read (sitemap_too_large); absent: not kept (an older batch) */
  sitemapFiles?: readonly SitemapFile[];
}

/** The link findings' rows that need the links' anchors and rel (src/store/batch-links.repository.ts). */
export interface LinkGraphFacts {
  /** internal links marked rel=nofollow, a page's links to itself aside, in page order */
  nofollow: { source: string; target: string; anchor: string }[];
  /** the URLs the batch checked besides its pages (batch_checks; docs/sites.md "Links and resources checked"); absent: none */
  checks?: ReadonlyMap<string, CheckedUrl>;
  /** check_external: each (page, link to another site) once, in page order; absent: not checked */
  external?: { source: string; target: string }[];
}

/** One URL the batch checked besides its pages (services/batches/checks.ts). */
export interface CheckedUrl {
  /** font, stylesheet: named by a stylesheet (@font-face, @import), not by a page */
  kind: 'internal' | 'resource' | 'external' | 'font' | 'stylesheet';
  /** pending: a font found in a stylesheet whose own answer is not in (a batch cancelled meanwhile) */
  verdict: 'ok' | 'broken' | 'blocked' | 'unchecked' | 'pending';
  status: number | null;
  error: string | null;
  redirectTo: string | null;
  /** a font or an @imported stylesheet: the stylesheets that name it; absent or null: none */
  via?: readonly string[] | null;
}

/** One site-level finding: its id, its title and the pages it concerns, in page order. */
export interface FindingRule {
  id: string;
  priority: Priority;
  /** a rule whose threshold is a setting names it in its title */
  title: string | ((settings: FindingSettings) => string);
  find(ctx: FindingContext): FindingPage[];
}
