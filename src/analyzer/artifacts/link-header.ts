// The HTTP Link header (RFC 8288), parsed once for every check that reads it (canonical,
// hreflang): the `linkHeader` artifact.

import type { LinkHeaderEntry } from './types.js';

/** Parses an HTTP Link header (RFC 8288) into its entries; tolerant of odd spacing and case. */
export function parseLinkHeader(value: string | undefined): LinkHeaderEntry[] {
  if (!value) return [];
  const out: LinkHeaderEntry[] = [];
  const re = /<([^>]*)>([^<]*)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(value)) !== null) {
    const params = m[2] ?? '';
    let rel: string[] = [];
    let hreflang: string | null = null;
    const pre = /;\s*([a-z*-]+)\s*=\s*(?:"([^"]*)"|([^;,\s]*))/gi;
    let p: RegExpExecArray | null;
    while ((p = pre.exec(params)) !== null) {
      const name = p[1]!.toLowerCase();
      const v = p[2] ?? p[3] ?? '';
      if (name === 'rel' && rel.length === 0) rel = v.toLowerCase().split(/\s+/).filter(Boolean);
      else if (name === 'hreflang' && hreflang === null) hreflang = v;
    }
    out.push({ href: m[1]!.trim(), rel, hreflang });
  }
  return out;
}
