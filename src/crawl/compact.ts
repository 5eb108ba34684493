// A batch's pages as its end holds them to compute the site findings (docs/sites.md, "The end
// of a batch"): read in chunks, each page kept in a compact form and its parsed facts JSON let
// go. The rules, the summary, the issue states and the diff read a compact page exactly as a
// parsed one (the same fields, the same values), but what it holds is smaller:
//
// - every URL interned once (a Map<string, number> and an array): a page's links and nofollow
//   links are integer ids in one shared Int32Array, made into strings when a rule reads them;
// - the failed checks: ids of shared, frozen entries in one shared Int32Array;
// - the MinHash signature: its 128 bytes in one shared Uint8Array (its hex text made on read);
// - what recurs across pages (hreflang languages, the AI readiness facts, axe rule lists, empty
//   lists) shared by value; the resources' URLs interned too.
//
// A compact page is read, never changed (the rules only read); `toJSON` gives the plain facts.
import type { PageFacts } from './facts.js';
import type { PageForFindings } from './findings/types.js';
import { SIGNATURE_SIZE } from './similarity.js';

type Check = PageFacts['failed'][number];

/** An Int32Array that grows (doubling) as ids are pushed. */
class IntPool {
  data = new Int32Array(1 << 16);
  length = 0;
  push(v: number): void {
    if (this.length === this.data.length) {
      const next = new Int32Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = v;
  }
}

/** A Uint8Array of fixed-size records (MinHash signatures) that grows as they are added. */
class BytePool {
  data = new Uint8Array(1 << 20);
  length = 0;
  /** the hex text's bytes stored; its offset, or -1 when the text is not lowercase hex */
  addHex(hex: string): number {
    if (hex.length !== SIGNATURE_SIZE * 2 || !/^[0-9a-f]*$/.test(hex)) return -1;
    const n = hex.length / 2;
    while (this.length + n > this.data.length) {
      const next = new Uint8Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    const at = this.length;
    this.data.set(Buffer.from(hex, 'hex'), at);
    this.length += n;
    return at;
  }
  /** the bytes' lowercase hex text, one flat string (not one made piece by piece) */
  hex(at: number, n: number): string {
    return Buffer.from(this.data.buffer, this.data.byteOffset + at, n).toString('hex');
  }
}

/** What the compact pages of one batch share: the interned URLs, checks and values, and the pools. */
class Tables {
  readonly urlIds = new Map<string, number>();
  readonly urls: string[] = [];
  readonly links = new IntPool();
  readonly checkIds = new Map<string, number>();
  readonly checks: Check[] = [];
  readonly failed = new IntPool();
  readonly sigs = new BytePool();
  private readonly values = new Map<string, unknown>();

  url(u: string): number {
    let id = this.urlIds.get(u);
    if (id === undefined) {
      id = this.urls.length;
      this.urlIds.set(u, id);
      this.urls.push(u);
    }
    return id;
  }
  /** the interned copy of a URL (one string per distinct URL) */
  str(u: string): string {
    return this.urls[this.url(u)]!;
  }
  check(c: Check): number {
    const key = `${c.id}\u0000${c.priority}\u0000${c.title}`;
    let id = this.checkIds.get(key);
    if (id === undefined) {
      id = this.checks.length;
      this.checkIds.set(key, id);
      this.checks.push(Object.freeze({ id: c.id, priority: c.priority, title: c.title }));
    }
    return id;
  }
  /** one shared (frozen) copy of a value that recurs across pages, by its JSON */
  shared<T>(v: T): T {
    const key = JSON.stringify(v);
    const hit = this.values.get(key);
    if (hit !== undefined) return hit as T;
    const frozen = deepFreeze(v);
    this.values.set(key, frozen);
    return frozen;
  }
}

function deepFreeze<T>(v: T): T {
  if (v !== null && typeof v === 'object') {
    for (const x of Object.values(v)) deepFreeze(x);
    Object.freeze(v);
  }
  return v;
}

const ABSENT = -2;

/** One audited page's facts, compact (see the top of this file); read as PageFacts. */
export class CompactFacts implements PageFacts {
  readonly title: string | null;
  readonly description: string | null;
  readonly canonical: string | null;
  readonly hreflang: { lang: string; url: string }[];
  readonly noindex: boolean;
  readonly redirected: boolean;
  readonly result: PageFacts['result'];
  readonly score: number;
  readonly totalMs: number;
  readonly htmlBytes: number;
  readonly mainWords: number | undefined;
  readonly mainHash: string | null | undefined;
  readonly h1: string[] | undefined;
  readonly render: PageFacts['render'];
  readonly ignored: PageFacts['ignored'];
  readonly ai: PageFacts['ai'];
  readonly axe: string[] | undefined;
  readonly resources: PageFacts['resources'];
  readonly failedRequests: PageFacts['failedRequests'];
  private readonly t: Tables;
  private readonly linkAt: number;
  private readonly nofollowAt: number;
  private readonly linkEnd: number;
  private readonly failedAt: number;
  private readonly failedEnd: number;
  /** the signature's offset in t.sigs; -1: kept as text (sigText); ABSENT: none */
  private readonly sigAt: number;
  private readonly sigText: string | null | undefined;

  constructor(f: PageFacts, t: Tables) {
    this.t = t;
    this.title = f.title;
    this.description = f.description;
    this.canonical = f.canonical === null ? null : t.str(f.canonical);
    this.hreflang =
      f.hreflang.length === 0 ? EMPTY : f.hreflang.map((h) => ({ lang: t.str(h.lang), url: t.str(h.url) }));
    this.noindex = f.noindex;
    this.redirected = f.redirected;
    this.result = f.result;
    this.score = f.score;
    this.totalMs = f.totalMs;
    this.htmlBytes = f.htmlBytes;
    this.mainWords = f.mainWords;
    this.mainHash = f.mainHash;
    this.h1 = f.h1 === undefined ? undefined : f.h1.length === 0 ? EMPTY : f.h1;
    this.render = f.render;
    this.ignored = f.ignored;
    this.ai = f.ai === undefined ? undefined : t.shared(f.ai);
    this.axe = f.axe === undefined ? undefined : t.shared(f.axe);
    // the resources' URLs interned (a site's stylesheets and scripts recur on every page)
    this.resources =
      f.resources === undefined
        ? undefined
        : f.resources.length === 0
          ? EMPTY
          : f.resources.map((r) => ({ ...r, url: t.str(r.url) }));
    this.failedRequests = f.failedRequests;
    this.linkAt = t.links.length;
    for (const u of f.links) t.links.push(t.url(u));
    this.nofollowAt = t.links.length;
    for (const u of f.nofollow) t.links.push(t.url(u));
    this.linkEnd = t.links.length;
    this.failedAt = t.failed.length;
    for (const c of f.failed) t.failed.push(t.check(c));
    this.failedEnd = t.failed.length;
    const sig = f.minhash;
    const at = typeof sig === 'string' ? t.sigs.addHex(sig) : ABSENT;
    this.sigAt = at;
    this.sigText = at === -1 || at === ABSENT ? sig : undefined;
  }

  private urlsOf(from: number, to: number): string[] {
    const { data } = this.t.links;
    const out = new Array<string>(to - from);
    for (let i = from; i < to; i++) out[i - from] = this.t.urls[data[i]!]!;
    return out;
  }
  get links(): string[] {
    return this.urlsOf(this.linkAt, this.nofollowAt);
  }
  get nofollow(): string[] {
    return this.urlsOf(this.nofollowAt, this.linkEnd);
  }
  /** the links then the nofollow links, those to `self` (the page's own URL) left out: linkTargets */
  targets(self: string): string[] {
    const { data } = this.t.links;
    const selfId = this.t.urlIds.get(self);
    const out: string[] = [];
    for (let i = this.linkAt; i < this.linkEnd; i++) if (data[i] !== selfId) out.push(this.t.urls[data[i]!]!);
    return out;
  }
  /** each of targets(self), in its order, without making their array (a rule's walk over 100,000 pages) */
  forEachTarget(self: string, fn: (target: string) => void): void {
    const { data } = this.t.links;
    const { urls } = this.t;
    const selfId = this.t.urlIds.get(self);
    for (let i = this.linkAt; i < this.linkEnd; i++) if (data[i] !== selfId) fn(urls[data[i]!]!);
  }
  /** each followed link (`links`), in order, without making their array */
  forEachLink(fn: (target: string) => void): void {
    const { data } = this.t.links;
    const { urls } = this.t;
    for (let i = this.linkAt; i < this.nofollowAt; i++) fn(urls[data[i]!]!);
  }
  /** whether targets(self) has any */
  hasTargets(self: string): boolean {
    const { data } = this.t.links;
    const selfId = this.t.urlIds.get(self);
    for (let i = this.linkAt; i < this.linkEnd; i++) if (data[i] !== selfId) return true;
    return false;
  }
  /** each failed check, in order, without making their array (the summary's count) */
  forEachFailed(fn: (c: Check) => void): void {
    const { data } = this.t.failed;
    for (let i = this.failedAt; i < this.failedEnd; i++) fn(this.t.checks[data[i]!]!);
  }
  get failed(): Check[] {
    const { data } = this.t.failed;
    const out = new Array<Check>(this.failedEnd - this.failedAt);
    for (let i = this.failedAt; i < this.failedEnd; i++) out[i - this.failedAt] = this.t.checks[data[i]!]!;
    return out;
  }
  /** whether `minhash` is a string (its text not made) */
  hasSignature(): boolean {
    return this.sigAt >= 0 || typeof this.sigText === 'string';
  }
  /** the signature's SIGNATURE_SIZE bytes copied to `out` at `at`; false: not kept as bytes (none, or not hex) */
  copySignature(out: Uint8Array, at: number): boolean {
    if (this.sigAt < 0) return false;
    const { data } = this.t.sigs;
    for (let i = 0; i < SIGNATURE_SIZE; i++) out[at + i] = data[this.sigAt + i]!;
    return true;
  }
  get minhash(): string | null | undefined {
    if (this.sigAt < 0) return this.sigText;
    return this.t.sigs.hex(this.sigAt, SIGNATURE_SIZE);
  }

  /** the plain facts (an export, a test's comparison) */
  toJSON(): PageFacts {
    const out: PageFacts = {
      title: this.title,
      description: this.description,
      canonical: this.canonical,
      hreflang: this.hreflang,
      noindex: this.noindex,
      links: this.links,
      nofollow: this.nofollow,
      redirected: this.redirected,
      result: this.result,
      score: this.score,
      failed: this.failed,
      totalMs: this.totalMs,
      htmlBytes: this.htmlBytes,
    };
    if (this.mainWords !== undefined) out.mainWords = this.mainWords;
    if (this.mainHash !== undefined) out.mainHash = this.mainHash;
    const sig = this.minhash;
    if (sig !== undefined) out.minhash = sig;
    if (this.h1 !== undefined) out.h1 = this.h1;
    if (this.render !== undefined) out.render = this.render;
    if (this.ignored !== undefined) out.ignored = this.ignored;
    if (this.ai !== undefined) out.ai = this.ai;
    if (this.axe !== undefined) out.axe = this.axe;
    if (this.resources !== undefined) out.resources = this.resources;
    if (this.failedRequests !== undefined) out.failedRequests = this.failedRequests;
    return out;
  }
}

const EMPTY: never[] = Object.freeze([]) as unknown as never[];

/** A batch's page as a batch's end reads it (services/batches: BatchPageResult), facts compact. */
export interface PageRow extends Omit<PageForFindings, 'facts'> {
  depth: number;
  reportId: number | null;
  canonical: string | null;
  facts: PageFacts | null;
}

/**
 * The compact pages of one batch: `add` each page as it is read (its facts parsed, then let go:
 * only the compact form is kept); the pages come back in the order they were added, URLs,
 * checks and recurring values shared among them.
 */
export function compactPages(): { add<P extends PageRow>(p: P): P } {
  const t = new Tables();
  return {
    add: <P extends PageRow>(p: P): P => ({
      ...p,
      url: t.str(p.url),
      canonical: p.canonical === null ? null : t.str(p.canonical),
      finalUrl: p.finalUrl === null ? null : t.str(p.finalUrl),
      facts: p.facts === null ? null : new CompactFacts(p.facts, t),
    }),
  };
}
