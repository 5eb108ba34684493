// robots.txt, read once for everybody: robots-parser (Disallow/Allow with the longest match,
// Crawl-delay, Sitemap lines) for the product token `Pagegrade` (and `*`). The artifacts keep
// the parsed rules for the checks (RobotsInfo.parsed); the batch crawler asks parseRobots.
import robotsParserModule from 'robots-parser';
import type { RobotsRules } from './artifacts/types.js';

// robots-parser is CommonJS (module.exports = function); its typings declare an ES default.
const robotsParser = robotsParserModule as unknown as (url: string, body: string) => RobotsRules;

/** the product token matched against robots.txt User-agent lines */
export const USER_AGENT_TOKEN = 'Pagegrade';

/** robots.txt's rules as robots-parser reads them; `robotsUrl` scopes them to its origin. */
export function robotsRules(robotsUrl: string, text: string): RobotsRules {
  return robotsParser(robotsUrl, text);
}

/** What the crawler asks robots.txt: may it fetch a URL, how long to wait, which sitemaps. */
export interface Robots {
  allowed(url: string): boolean;
  /** Crawl-delay in ms, or null */
  delayMs: number | null;
  sitemaps: string[];
}

/** `text` null: no robots.txt (404, or it could not be fetched): everything is allowed. */
export function parseRobots(robotsUrl: string, text: string | null): Robots {
  if (text === null) return { allowed: () => true, delayMs: null, sitemaps: [] };
  const rules = robotsRules(robotsUrl, text);
  const delay = rules.getCrawlDelay(USER_AGENT_TOKEN);
  return {
    // a URL of another origin is not robots.txt's business: undefined → allowed (callers keep to the site)
    allowed: (url) => rules.isAllowed(url, USER_AGENT_TOKEN) !== false,
    delayMs:
      typeof delay === 'number' && Number.isFinite(delay) && delay > 0 ? Math.round(delay * 1000) : null,
    sitemaps: rules.getSitemaps(),
  };
}
