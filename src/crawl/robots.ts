// robots.txt for the crawler: robots-parser (Disallow/Allow with the longest match, Crawl-delay,
// Sitemap lines), for the product token `Pagegrade` (and `*`).
import robotsParserModule from 'robots-parser';
import type { RobotsRules } from '../analyzer/artifacts/types.js';
import { USER_AGENT_TOKEN } from '../analyzer/artifacts/index.js';

const robotsParser = robotsParserModule as unknown as (url: string, body: string) => RobotsRules;

export interface Robots {
  allowed(url: string): boolean;
  /** Crawl-delay in ms, or null */
  delayMs: number | null;
  sitemaps: string[];
}

/** `text` null: no robots.txt (404, or it could not be fetched): everything is allowed. */
export function parseRobots(robotsUrl: string, text: string | null): Robots {
  if (text === null) return { allowed: () => true, delayMs: null, sitemaps: [] };
  const rules = robotsParser(robotsUrl, text);
  const delay = rules.getCrawlDelay(USER_AGENT_TOKEN);
  return {
    // a URL of another origin is not robots.txt's business: undefined → allowed (callers keep to the site)
    allowed: (url) => rules.isAllowed(url, USER_AGENT_TOKEN) !== false,
    delayMs:
      typeof delay === 'number' && Number.isFinite(delay) && delay > 0 ? Math.round(delay * 1000) : null,
    sitemaps: rules.getSitemaps(),
  };
}
