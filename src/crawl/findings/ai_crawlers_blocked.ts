import type { FindingRule } from './types.js';

/**
 * AI readiness, informational (blocking is a choice): the pages robots.txt keeps one of the AI
 * crawlers from (GPTBot, ClaudeBot, PerplexityBot, Google-Extended, CCBot) or that say
 * noai / noimageai, the detail naming them.
 */
const rule: FindingRule = {
  id: 'ai_crawlers_blocked',
  priority: 'low',
  title: 'Pages kept from AI crawlers (robots.txt or noai; a choice)',
  find(ctx) {
    const out = [];
    for (const p of ctx.done) {
      const ai = p.facts.ai;
      if (ai === undefined || (ai.blocked.length === 0 && ai.directives.length === 0)) continue;
      const parts = [];
      if (ai.blocked.length) parts.push(`robots.txt blocks ${ai.blocked.join(', ')}`);
      if (ai.directives.length) parts.push(ai.directives.join(', '));
      out.push({ url: p.url, detail: parts.join('; ') });
    }
    return out;
  },
};

export default rule;
