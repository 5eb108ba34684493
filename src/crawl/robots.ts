// robots.txt for the crawler: one wrapper of robots-parser for the audit and the crawl, in
// src/analyzer/robots.ts; re-exported at this path for the batch service's import.
export { parseRobots, type Robots } from '../analyzer/robots.js';
