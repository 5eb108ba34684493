// hreflang alternates (<link rel=alternate hreflang> in the head, or Link headers): valid
// language[-script][-region] codes or x-default, absolute URLs, one URL per code; a missing
// self-reference or x-default is reported as advice. Not applicable without hreflang links.
import type { CheckDefinition } from '../types.js';
import { clip, tableDetails } from '../types.js';

/** ISO 639-1 codes, plus the retired iw/in/ji still seen in the wild */
const LANGS = new Set(
  (
    'aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv dz ee el en eo es et eu ' +
    'fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ' +
    'ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj om or os ' +
    'pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ' +
    'ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu iw in ji ' +
    // common ISO 639-2/3 languages without a two-letter code
    'fil haw yue ceb ast gsw hmn kok mai sat ckb nso sah zgh mni doi bho chr kab kri lus mfe nds scn szl tet cmn nan hak wuu'
  ).split(' '),
);

/** ISO 3166-1 alpha-2 regions (and XK, widely used for Kosovo) */
const REGIONS = new Set(
  (
    'ad ae af ag ai al am ao aq ar as at au aw ax az ba bb bd be bf bg bh bi bj bl bm bn bo bq br bs bt bv bw by bz ca cc cd cf cg ' +
    'ch ci ck cl cm cn co cr cu cv cw cx cy cz de dj dk dm do dz ec ee eg eh er es et fi fj fk fm fo fr ga gb gd ge gf gg gh gi gl ' +
    'gm gn gp gq gr gs gt gu gw gy hk hm hn hr ht hu id ie il im in io iq ir is it je jm jo jp ke kg kh ki km kn kp kr kw ky kz la ' +
    'lb lc li lk lr ls lt lu lv ly ma mc md me mf mg mh mk ml mm mn mo mp mq mr ms mt mu mv mw mx my mz na nc ne nf ng ni nl no np ' +
    'nr nu nz om pa pe pf pg ph pk pl pm pn pr ps pt pw py qa re ro rs ru rw sa sb sc sd se sg sh si sj sk sl sm sn so sr ss st sv ' +
    'sx sy sz tc td tf tg th tj tk tl tm tn to tr tt tv tw tz ua ug um us uy uz va vc ve vg vi vn vu wf ws ye yt za zm zw xk'
  ).split(' '),
);

/** Why an hreflang value is not a valid code; null when it is. Case-insensitive; not trimmed (as Lighthouse). */
export function hreflangProblem(code: string): string | null {
  if (code === '') return 'empty hreflang';
  if (code !== code.trim()) return 'spaces around the code';
  const c = code.toLowerCase();
  if (c === 'x-default') return null;
  if (c.includes('_')) return `use "-" not "_" (${code.replace(/_/g, '-')})`;
  const parts = c.split('-');
  const lang = parts[0]!;
  if (!/^[a-z]{2,3}$/.test(lang)) return `"${parts[0]}" is not a language code`;
  if (!LANGS.has(lang)) return `unknown language code "${parts[0]}"`;
  let i = 1;
  if (parts[i] !== undefined && /^[a-z]{4}$/.test(parts[i]!)) i++; // script, e.g. Hans
  if (parts[i] !== undefined && (/^[a-z]{2}$/.test(parts[i]!) || /^\d{3}$/.test(parts[i]!))) {
    const r = parts[i]!;
    if (r === 'uk') return 'unknown region "UK" (the United Kingdom is GB)';
    if (r.length === 2 && !REGIONS.has(r)) return `unknown region code "${r.toUpperCase()}"`;
    i++;
  }
  // variants (e.g. 1996, valencia) are valid BCP 47 but rarely meaningful for hreflang
  while (parts[i] !== undefined && /^(?:[a-z0-9]{5,8}|\d[a-z0-9]{3})$/.test(parts[i]!)) i++;
  if (i < parts.length) return `"${parts[i]}" is not a valid script or region subtag`;
  return null;
}

interface Alt {
  source: string;
  hreflang: string;
  href: string | null;
}

const check: CheckDefinition = {
  id: 'hreflang',
  category: 'seo',
  priority: 'medium',
  title: 'hreflang alternates are valid',
  failTitle: 'hreflang alternates are invalid',
  howToFix:
    'Give each language version a <link rel="alternate" hreflang="xx[-YY]" href="https://…"> in the <head> with an ISO 639-1 language (optionally a script and an ISO 3166-1 region, e.g. en-GB, zh-Hant-TW) or x-default, an absolute URL, one URL per code, and list the page itself too.',
  failsWhen:
    'an alternate has an invalid code, no href, a relative href, or one code maps to several URLs. Not applicable without hreflang links',
  needsContent: true,
  run(a) {
    const alts: Alt[] = [];
    for (const l of a.links) {
      // links in the body are ignored by search engines (as Lighthouse)
      if (!l.inHead || !l.rel.includes('alternate') || l.hreflang === null) continue;
      alts.push({ source: 'link', hreflang: l.hreflang, href: l.href === null ? null : l.href.trim() });
    }
    for (const e of a.linkHeader) {
      if (e.rel.includes('alternate') && e.hreflang !== null)
        alts.push({ source: 'Link header', hreflang: e.hreflang, href: e.href });
    }
    if (alts.length === 0) return 'not_applicable';

    const rows: (string | null)[][] = [];
    const byCode = new Map<string, Set<string>>();
    let self = false;
    let xDefault = false;
    const pageKey = a.finalUrlParsed.href.replace(/#.*$/, '');
    for (const alt of alts) {
      const problems: string[] = [];
      const codeProblem = hreflangProblem(alt.hreflang);
      if (codeProblem) problems.push(codeProblem);
      if (alt.href === null || alt.href === '') problems.push('no href');
      else if (!/^https?:\/\//i.test(alt.href)) problems.push('relative href (must be an absolute URL)');
      else {
        let u: URL | null = null;
        try {
          u = new URL(alt.href);
        } catch {
          problems.push('invalid URL');
        }
        if (u !== null) {
          u.hash = '';
          if (u.href === pageKey) self = true;
          if (!codeProblem) {
            const code = alt.hreflang.toLowerCase();
            if (code === 'x-default') xDefault = true;
            let set = byCode.get(code);
            if (!set) byCode.set(code, (set = new Set()));
            set.add(u.href);
          }
        }
      }
      if (problems.length)
        rows.push([
          alt.source,
          alt.hreflang,
          alt.href === null ? null : clip(alt.href, 120),
          problems.join('; '),
        ]);
    }
    const bad = rows.length;
    let conflicts = 0;
    for (const [code, urls] of byCode) {
      if (urls.size > 1) {
        conflicts++;
        rows.push([
          '(all)',
          code,
          [...urls].map((u) => clip(u, 60)).join(' | '),
          `${urls.size} different URLs for one code`,
        ]);
      }
    }
    const advice: string[] = [];
    if (!self) advice.push('the page does not list itself among its alternates');
    if (!xDefault) advice.push('there is no x-default alternate for other languages');
    const adviceText = advice.length ? ` Advice: ${advice.join('; ')}.` : '';
    if (rows.length > 0) {
      return {
        passed: false,
        message: `${[
          bad > 0
            ? `${bad} of ${alts.length} hreflang alternate${alts.length === 1 ? ' is' : 's are'} invalid (bad language code, missing or relative URL)`
            : '',
          conflicts > 0 ? `${conflicts} code${conflicts === 1 ? ' points' : 's point'} to several URLs` : '',
        ]
          .filter(Boolean)
          .join('; ')}.${adviceText}`,
        value: rows.length,
        details: tableDetails(['source', 'hreflang', 'href', 'problem'], rows),
      };
    }
    return {
      passed: true,
      message: `${alts.length} hreflang alternate${alts.length === 1 ? ' is' : 's are'} valid (${[...byCode.keys()].slice(0, 10).join(', ')}${byCode.size > 10 ? ', …' : ''}).${adviceText}`,
      value: 0,
    };
  },
};

export default check;
