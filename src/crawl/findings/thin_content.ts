import type { FindingRule } from './types.js';

/** Audited pages whose main text (the template left out) is under the batch's thin_content_words (default 200). */
const rule: FindingRule = {
  id: 'thin_content',
  priority: 'medium',
  title: (s) => `Pages with under ${s.thinContentWords} words of main text`,
  find(ctx) {
    const under = ctx.settings.thinContentWords;
    return ctx.done
      .filter((p) => p.facts.mainWords !== undefined && p.facts.mainWords < under)
      .map((p) => ({ url: p.url, detail: `${p.facts.mainWords} words` }));
  },
};

export default rule;
