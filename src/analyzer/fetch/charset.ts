// Character set detection and HTML sniffing, following the WHATWG encoding sniffing order:
// byte order mark, then the Content-Type header's charset, then a <meta> prescan of the first
// 4096 bytes, then UTF-8. Decoding uses TextDecoder (full ICU in Node 20).

export type CharsetSource = 'header' | 'bom' | 'meta' | 'default';

/** The canonical WHATWG name for a label, or null when TextDecoder does not know it. */
export function canonicalCharset(label: string): string | null {
  try {
    return new TextDecoder(label.trim()).encoding;
  } catch {
    return null;
  }
}

/** The parameters of a Content-Type value: media type (lower-cased) and charset label, if any. */
export function parseContentType(value: string | undefined): { mediaType: string; charset: string | null } {
  if (!value) return { mediaType: '', charset: null };
  const [type, ...params] = value.split(';');
  let charset: string | null = null;
  for (const p of params) {
    const m = /^\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(p);
    if (m) charset = m[1]!;
  }
  return { mediaType: (type ?? '').trim().toLowerCase(), charset };
}

function bomCharset(body: Buffer): string | null {
  if (body.length >= 3 && body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return 'utf-8';
  if (body.length >= 2 && body[0] === 0xfe && body[1] === 0xff) return 'utf-16be';
  if (body.length >= 2 && body[0] === 0xff && body[1] === 0xfe) return 'utf-16le';
  return null;
}

/** The charset declared by a <meta charset> or <meta http-equiv="content-type"> in the first 4096 bytes. */
export function metaCharset(body: Buffer): string | null {
  const head = body
    .subarray(0, 4096)
    .toString('latin1')
    .replace(/<!--[\s\S]*?-->/g, '');
  const re = /<meta\b[^>]*>/gi;
  for (let m = re.exec(head); m; m = re.exec(head)) {
    const tag = m[0];
    const direct = /\bcharset\s*=\s*["']?\s*([^\s"'/>;]+)/i.exec(tag);
    if (!direct) continue;
    // <meta charset=x> or <meta http-equiv="content-type" content="text/html; charset=x">
    if (/^<meta\b[^>]*\scharset\s*=/i.test(tag) || /http-equiv\s*=\s*["']?\s*content-type/i.test(tag)) {
      let name = canonicalCharset(direct[1]!);
      if (name === null) continue;
      // a meta cannot declare UTF-16 (the page would not be readable as ASCII); x-user-defined is windows-1252
      if (name.startsWith('utf-16')) name = 'utf-8';
      if (name === 'x-user-defined') name = 'windows-1252';
      return name;
    }
  }
  return null;
}

/** Detects the body's charset and decodes it. */
export function decodeBody(
  body: Buffer,
  headerCharset: string | null,
): { text: string; charset: { name: string; source: CharsetSource } } {
  let name: string | null = bomCharset(body);
  let source: CharsetSource = 'bom';
  if (name === null && headerCharset) {
    name = canonicalCharset(headerCharset);
    source = 'header';
  }
  if (name === null) {
    name = metaCharset(body);
    source = 'meta';
  }
  if (name === null) {
    name = 'utf-8';
    source = 'default';
  }
  let text: string;
  try {
    text = new TextDecoder(name).decode(body);
  } catch {
    // a label TextDecoder knows but cannot decode with (e.g. "replacement"): fall back to UTF-8
    name = 'utf-8';
    source = 'default';
    text = new TextDecoder('utf-8').decode(body);
  }
  return { text, charset: { name, source } };
}

const HTML_SNIFF = [
  '<!doctype html',
  '<html',
  '<head',
  '<script',
  '<iframe',
  '<h1',
  '<div',
  '<font',
  '<table',
  '<a',
  '<style',
  '<title',
  '<b',
  '<body',
  '<br',
  '<p',
  '<!--',
];

/** The WHATWG MIME sniffing rule for HTML, for responses without a Content-Type. */
export function looksLikeHtml(body: Buffer): boolean {
  let start = 0;
  if (bomCharset(body) === 'utf-8') start = 3;
  const s = body
    .subarray(start, start + 512)
    .toString('latin1')
    .replace(/^[\t\n\f\r ]+/, '')
    .toLowerCase();
  return HTML_SNIFF.some((p) => {
    if (!s.startsWith(p)) return false;
    const next = s.charAt(p.length);
    return (
      p === '<!--' ||
      next === ' ' ||
      next === '>' ||
      next === '\t' ||
      next === '\n' ||
      next === '\r' ||
      next === '\f'
    );
  });
}

/** Media types the fetcher accepts as a page. */
export function isHtmlMediaType(mediaType: string): boolean {
  return mediaType === 'text/html' || mediaType === 'application/xhtml+xml';
}
