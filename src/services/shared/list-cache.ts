// The reports list's per-process cache: filtered totals and the ids of filtered pages, keyed by
// the version of the user's reports. The version changes in the same transaction as every
// insert, delete or result change (and every re-audit), and URLs and projects never change, so
// a total or a page of ids read at a version is exact while that version is current.
//
// After reading, the version is read again: if it moved meanwhile, what was read may belong to
// either version and is not kept. Concurrent requests for the same total share one count (the
// entry holds the promise), so a burst of them does not count N times.

/** entries kept per cache (the least recently used go first) */
export const TOTALS_CACHE_SIZE = 10_000;

/** The entry of `key`, moved to the end of the map's order (the most recently used). */
function touch<V>(map: Map<string, V>, key: string): V | undefined {
  const value = map.get(key);
  if (value !== undefined) {
    map.delete(key);
    map.set(key, value);
  }
  return value;
}

/** A small LRU: a Map keeps insertion order, a hit moves the entry to the end. */
class Lru<V> {
  private readonly map = new Map<string, V>();
  constructor(private readonly max: number) {}
  get(key: string): V | undefined {
    return touch(this.map, key);
  }
  set(key: string, value: V): void {
    this.map.delete(key);
    if (this.map.size >= this.max) this.map.delete(this.map.keys().next().value!);
    this.map.set(key, value);
  }
  /** Removes the entry if it still holds `value`. */
  delete(key: string, value: V | undefined): void {
    if (this.map.get(key) === value) this.map.delete(key);
  }
}

/** How the cache reads the current version of a user's reports (null: no such user). */
export type VersionOf = (userId: number) => Promise<number | null>;

export class ReportsListCache {
  private readonly totals = new Lru<Promise<unknown>>(TOTALS_CACHE_SIZE);
  private readonly pages = new Lru<number[]>(TOTALS_CACHE_SIZE);

  constructor(private readonly versionOf: VersionOf) {}

  /** The total for `filter` at `version` (a count, or a count and how it was made): counted once, shared by concurrent callers. */
  total<T = number>(
    userId: number,
    version: number,
    filter: readonly unknown[],
    count: () => Promise<T>,
  ): Promise<T> {
    const key = JSON.stringify([userId, version, ...filter]);
    let counting = this.totals.get(key) as Promise<T> | undefined;
    if (counting === undefined) {
      let started: Promise<T> | undefined = undefined;
      started = (async () => {
        const n = await count();
        if ((await this.versionOf(userId)) !== version) this.totals.delete(key, started);
        return n;
      })();
      counting = started;
      this.totals.set(key, started);
      started.catch(() => this.totals.delete(key, started));
    }
    return counting;
  }

  /** The ids of one page for `page` (filter, order, size, number) at `version`. */
  async pageIds(
    userId: number,
    version: number,
    page: readonly unknown[],
    read: () => Promise<number[]>,
  ): Promise<number[]> {
    const key = JSON.stringify([userId, version, ...page]);
    let ids = this.pages.get(key);
    if (ids === undefined) {
      ids = await read();
      if ((await this.versionOf(userId)) === version) this.pages.set(key, ids);
    }
    return ids;
  }
}

/** bytes of finished answers kept per process (the least recently used go first) */
export const ANSWERS_CACHE_BYTES = 16 * 1024 * 1024;
/** an answer larger than this is not kept (a page of 100 rows is ~60 kB) */
const LARGEST_KEPT_ANSWER = 512 * 1024;

/** A list page as the API sends it: its bytes, their ETag, and its size (for the cache's bound). */
export interface ListAnswer {
  readonly body: Buffer;
  readonly etag: string;
  readonly bytes: number;
}

/** A finished answer as kept: whatever the caller made of it, and its size in bytes. */
export interface KeptAnswer {
  readonly bytes: number;
}

/**
 * Finished answers (a list page as sent), keyed by what the caller names (the reports service:
 * the user and everything the answer is made from — the query, the links' query string — with
 * the version of their reports it was made at kept in the entry). Such an answer is exact while
 * that version is current, since every change of what a list row shows changes the version in
 * the same transaction (an insert, a delete, a result, a re-audit, privacy or password); the
 * service decides when an entry still answers (reports.service.ts, listAnswer). Bounded by
 * bytes, not entries.
 */
export class AnswerCache<T extends KeptAnswer> {
  private readonly map = new Map<string, T>();
  private bytes = 0;
  constructor(private readonly maxBytes: number = ANSWERS_CACHE_BYTES) {}

  get(key: string): T | undefined {
    return touch(this.map, key);
  }

  set(key: string, value: T): void {
    const size = key.length * 2 + value.bytes;
    if (size > LARGEST_KEPT_ANSWER) return;
    this.remove(key);
    while (this.bytes + size > this.maxBytes && this.map.size > 0) this.remove(this.map.keys().next().value!);
    this.map.set(key, value);
    this.bytes += size;
  }

  private remove(key: string): void {
    const old = this.map.get(key);
    if (old === undefined) return;
    this.map.delete(key);
    this.bytes -= key.length * 2 + old.bytes;
  }

  /** entries and bytes held (tests, metrics) */
  get size(): { entries: number; bytes: number } {
    return { entries: this.map.size, bytes: this.bytes };
  }
}
