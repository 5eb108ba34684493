import { tableDetails, type CheckDefinition } from '../types.js';

/** The AI crawlers whose robots.txt rules are reported, by their User-agent tokens. */
export const AI_AGENTS = ['GPTBot', 'ClaudeBot', 'PerplexityBot', 'Google-Extended', 'CCBot'] as const;

/** Whether robots.txt lets each AI agent fetch `url` (rules of a 2xx robots.txt; true when there are none). */
export function aiAgentAccess(
  parsed: { isAllowed(url: string, ua?: string): boolean | undefined } | null,
  url: string,
): { agent: string; allowed: boolean }[] {
  return AI_AGENTS.map((agent) => ({ agent, allowed: parsed?.isAllowed(url, agent) !== false }));
}

// Informational (docs/checks.md): blocking an AI crawler is the site's choice, so the check
// reports the rules and never fails; it is not judged when robots.txt could not be read.
const check: CheckDefinition = {
  id: 'ai_crawlers',
  category: 'ai',
  priority: 'low',
  title: 'robots.txt rules for AI crawlers reported',
  failTitle: 'robots.txt rules for AI crawlers unknown',
  howToFix:
    'Nothing to fix: blocking an AI crawler is a choice. To change it, add or remove a `User-agent: GPTBot` (ClaudeBot, PerplexityBot, Google-Extended, CCBot) group with `Disallow` rules in /robots.txt.',
  failsWhen:
    'never (informational): lists which of GPTBot, ClaudeBot, PerplexityBot, Google-Extended and CCBot robots.txt allows for the page. robots.txt not fetched or answering 5xx is not judged',
  needsContent: false,
  run(a) {
    const r = a.robots;
    if (r === null) return { passed: null, message: 'robots.txt was not fetched.' };
    if (r.status === null)
      return { passed: null, message: `robots.txt could not be fetched (${r.error ?? 'no answer'}).` };
    if (r.status >= 500) return { passed: null, message: `robots.txt answered ${r.status}.` };
    const access = aiAgentAccess(r.status < 400 ? r.parsed : null, a.finalUrl);
    const blocked = access.filter((x) => !x.allowed).map((x) => x.agent);
    return {
      passed: true,
      message:
        blocked.length === 0
          ? 'robots.txt lets every AI crawler checked (GPTBot, ClaudeBot, PerplexityBot, Google-Extended, CCBot) fetch this page.'
          : `robots.txt blocks ${blocked.join(', ')} from this page (a choice, not a failure).`,
      value: blocked,
      details: tableDetails(
        ['AI crawler', 'This page'],
        access.map((x) => [x.agent, x.allowed ? 'allowed' : 'blocked']),
      ),
    };
  },
};

export default check;
