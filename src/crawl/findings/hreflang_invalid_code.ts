import type { FindingPage, FindingRule } from './types.js';

/** language[-Script][-REGION]: an ISO 639-1 language, an optional ISO 15924 script, an optional ISO 3166-1 region */
const CODE = /^([a-z]{2})(?:-([a-z]{4}))?(?:-([a-z]{2}|\d{3}))?$/i;
const languages = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });
const regions = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
const scripts = new Intl.DisplayNames(['en'], { type: 'script', fallback: 'none' });
/** codes ICU knows as aliases that search engines refuse (the United Kingdom is GB) */
const REFUSED_REGIONS: ReadonlySet<string> = new Set(['UK', 'EU', 'UN']);

/** Is `code` a valid hreflang value (x-default, or a known language with optional script and region)? */
export function validHreflang(code: string): boolean {
  if (code.toLowerCase() === 'x-default') return true;
  const m = CODE.exec(code);
  if (!m) return false;
  const [, lang, script, region] = m;
  if (languages.of(lang!.toLowerCase()) === undefined) return false;
  if (
    script !== undefined &&
    scripts.of(script[0]!.toUpperCase() + script.slice(1).toLowerCase()) === undefined
  )
    return false;
  if (region !== undefined) {
    const r = region.toUpperCase();
    if (REFUSED_REGIONS.has(r) || regions.of(r) === undefined) return false;
  }
  return true;
}

/** hreflang values that are not a language (ISO 639-1) with an optional region (ISO 3166-1), nor x-default. */
const rule: FindingRule = {
  id: 'hreflang_invalid_code',
  priority: 'medium',
  title: 'hreflang values that are not a valid language/region code',
  find(ctx) {
    const out: FindingPage[] = [];
    for (const p of ctx.done)
      for (const h of p.facts.hreflang)
        if (!validHreflang(h.lang)) out.push({ url: p.url, detail: `${h.lang}: ${h.url}` });
    return out;
  },
};

export default rule;
