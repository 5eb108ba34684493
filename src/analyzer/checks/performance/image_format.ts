import { agree, clip, listDetails, plural, type CheckDefinition } from '../types.js';

const LEGACY_EXT = /\.(jpe?g|png|gif|bmp|tiff?)$/i;
const MODERN = new Set(['image/avif', 'image/webp', 'image/jxl']);

/** The legacy raster format of an image URL, or null (modern, SVG, or unknown). */
export function legacyFormat(url: string): string | null {
  if (url.startsWith('data:')) {
    const m = /^data:image\/([a-z0-9.+-]+)/i.exec(url);
    if (!m) return null;
    const t = m[1]!.toLowerCase();
    return t === 'png' || t === 'jpeg' || t === 'jpg' || t === 'gif' || t === 'bmp' ? t : null;
  }
  let path = url;
  const q = path.search(/[?#]/);
  if (q !== -1) path = path.slice(0, q);
  const m = LEGACY_EXT.exec(path);
  return m ? m[1]!.toLowerCase() : null;
}

const check: CheckDefinition = {
  id: 'image_format',
  category: 'performance',
  priority: 'medium',
  title: 'Images use modern formats',
  failTitle: 'Images use older, heavier formats',
  howToFix:
    'Serve photos and illustrations as AVIF or WebP (with a <picture> fallback if you must), and icons and logos as SVG; they are often 30–50% smaller than JPEG or PNG.',
  failsWhen:
    'an `<img>` points to a JPEG, PNG, GIF, BMP or TIFF (by extension, or by type for `data:` URLs) and is not inside a `<picture>` with an AVIF/WebP/JPEG XL `<source>`. SVG and unknown extensions pass',
  needsContent: true,
  run(a) {
    const legacy: string[] = [];
    let judged = 0;
    for (const img of a.images) {
      if (img.url === null) continue;
      judged++;
      if (legacyFormat(img.url) === null) continue;
      if (img.inPicture && img.pictureSourceTypes.some((t) => MODERN.has(t))) continue;
      legacy.push(clip(img.url, 200));
    }
    if (judged === 0) return { passed: true, message: 'The page has no images to judge.', value: 0 };
    if (legacy.length === 0)
      return {
        passed: true,
        message: `None of the page's ${judged} images use a legacy raster format.`,
        value: 0,
      };
    return {
      passed: false,
      message: `${legacy.length} of ${plural(judged, 'image')} ${agree(legacy.length, 'is', 'are')} JPEG, PNG, GIF or BMP; serve ${agree(legacy.length, 'it', 'them')} as AVIF or WebP.`,
      value: legacy.length,
      details: listDetails(legacy),
    };
  },
};

export default check;
