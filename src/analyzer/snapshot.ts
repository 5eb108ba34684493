// What the fetcher hands to the artifacts: the page as fetched and the site files beside it.
// The ground floor of the analyzer with types.ts: it imports nothing, so the artifacts' types
// (artifacts/types.ts) can build on it while types.ts builds on them (AnalyzeOptions).
// Import these from types.ts, which re-exports them.

export interface PageTimings {
  dns_ms: number | null;
  connect_ms: number | null;
  tls_ms: number | null;
  ttfb_ms: number | null;
  total_ms: number;
}

/** A resource fetched besides the page (robots.txt, sitemap, 404 probe, favicon). */
export interface ExtraResource {
  url: string;
  /** final URL after redirects */
  finalUrl: string;
  /** null when the fetch failed (see error) */
  status: number | null;
  /** lower-cased header names; repeated headers joined with ", " (set-cookie with "\n") */
  headers: Record<string, string>;
  /** decoded text, capped (robots 512 KB, sitemap 5 MB, 404 probe 256 KB); favicon: empty */
  body: string;
  /** the fetch error's message, when it failed or was skipped for time */
  error?: string;
  /** the body was cut at its cap (the fetcher stops reading there) */
  truncated?: boolean;
  durationMs: number;
}

/** Everything the fetcher learned; the artifacts are computed from this and nothing else. */
export interface PageSnapshot {
  /** the URL as requested (normalised) */
  url: string;
  finalUrl: string;
  status: number;
  /** "1.1", "2" … */
  httpVersion: string;
  /** lower-cased header names of the final response; repeated headers joined with ", " (set-cookie with "\n") */
  headers: Record<string, string>;
  redirects: { url: string; status: number }[];
  timings: PageTimings;
  /** bytes on the wire (compressed) and after decoding */
  transferBytes: number;
  body: Buffer;
  /** the body decoded with the detected charset */
  text: string;
  charset: { name: string; source: 'header' | 'bom' | 'meta' | 'default' };
  /** the media type of the content-type header, lower-cased, e.g. "text/html" */
  contentType: string;
  robots: ExtraResource | null;
  sitemap: ExtraResource | null;
  notFoundProbe: ExtraResource | null;
  /** /favicon.ico (headers only); the artifacts ignore it when the page declares an icon */
  favicon: ExtraResource | null;
  /** /llms.txt (the AI readiness checks); undefined or null when it was not fetched */
  llms?: ExtraResource | null;
}
