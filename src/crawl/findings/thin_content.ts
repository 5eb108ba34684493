import type { FindingRule } from './types.js';

/** a page's main text under this many words is thin */
export const THIN_CONTENT_WORDS = 200;

/** Audited pages whose main text (the template left out) is under THIN_CONTENT_WORDS words. */
const rule: FindingRule = {
  id: 'thin_content',
  priority: 'medium',
  title: `Pages with under ${THIN_CONTENT_WORDS} words of main text`,
  find(ctx) {
    return ctx.done
      .filter((p) => p.facts.mainWords !== undefined && p.facts.mainWords < THIN_CONTENT_WORDS)
      .map((p) => ({ url: p.url, detail: `${p.facts.mainWords} words` }));
  },
};

export default rule;
