// Sitemaps: a <urlset> gives page URLs, a <sitemapindex> gives more sitemaps (gzip parts are
// unpacked by the fetcher). Parsed with fast-xml-parser; a file that is not XML gives nothing.
import { XMLParser } from 'fast-xml-parser';

export interface ParsedSitemap {
  urls: string[];
  sitemaps: string[];
}

/**
 * A sitemap file a batch's discovery read (kept on the batch for sitemap_too_large): its
 * entries (`<url>`s, or an index's `<sitemap>`s) and its size uncompressed, in bytes;
 * `truncated`: it was over the fetcher's cap (5 MB), read up to there only.
 */
export interface SitemapFile {
  url: string;
  urls: number;
  bytes: number;
  truncated?: true;
}

const parser = new XMLParser({ ignoreAttributes: true, removeNSPrefix: true, trimValues: true });

const list = (v: unknown): unknown[] => (v === undefined || v === null ? [] : Array.isArray(v) ? v : [v]);
const loc = (entry: unknown): string | null => {
  if (entry && typeof entry === 'object' && 'loc' in entry) {
    const l = (entry as { loc: unknown }).loc;
    return typeof l === 'string' && l !== '' ? l : typeof l === 'number' ? String(l) : null;
  }
  return null;
};

export function parseSitemap(text: string): ParsedSitemap {
  let doc: Record<string, unknown>;
  try {
    doc = parser.parse(text) as Record<string, unknown>;
  } catch {
    return { urls: [], sitemaps: [] };
  }
  const urlset = doc['urlset'] as { url?: unknown } | undefined;
  const index = doc['sitemapindex'] as { sitemap?: unknown } | undefined;
  return {
    urls: urlset
      ? list(urlset.url)
          .map(loc)
          .filter((u): u is string => u !== null)
      : [],
    sitemaps: index
      ? list(index.sitemap)
          .map(loc)
          .filter((u): u is string => u !== null)
      : [],
  };
}
