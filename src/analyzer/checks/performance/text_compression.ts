import type { CheckDefinition } from '../types.js';

const ENCODINGS = new Set(['gzip', 'x-gzip', 'br', 'zstd', 'deflate']);

const check: CheckDefinition = {
  id: 'text_compression',
  category: 'performance',
  priority: 'high',
  title: 'The HTML is compressed',
  failTitle: 'The HTML is not compressed',
  howToFix:
    'Turn on Brotli, zstd or gzip compression for text responses on the server or CDN (e.g. gzip on; in nginx, mod_deflate in Apache).',
  failsWhen: "the HTML's `Content-Encoding` is not gzip, br, zstd or deflate",
  needsContent: false,
  run(a) {
    const ce = (a.headers['content-encoding'] ?? '').toLowerCase();
    const used = ce
      .split(',')
      .map((s) => s.trim())
      .filter((s) => ENCODINGS.has(s));
    if (used.length > 0) {
      const saved = a.htmlBytes > 0 ? Math.round((1 - a.transferBytes / a.htmlBytes) * 100) : 0;
      return {
        passed: true,
        message: `The HTML is sent with ${used.join(', ')} compression${saved > 0 ? ` (${saved}% smaller on the wire)` : ''}.`,
        value: used.join(', '),
      };
    }
    return {
      passed: false,
      message:
        ce === '' || ce === 'identity'
          ? 'The HTML is sent uncompressed (no Content-Encoding).'
          : `The HTML's Content-Encoding "${ce}" is not a compression.`,
      value: ce === '' ? null : ce,
    };
  },
};

export default check;
