// External link checking (issue 21 §1: docs/sites.md "Links and resources checked", BENCHMARKS.md
// "External link checks"): a running batch whose audited page links to N URLs (default 300) on
// H other "sites" (default 3: loopback servers named ext-1.bench.test … on 127.0.0.1, each
// answering after LATENCY ms, default 200) is ended by its batch.end step — the checks, then
// the findings — with check_external on; each server counts its requests and the most in
// flight at once. Printed: the time, URLs per second, the most in flight per host (the rule: 1),
// and requests per URL (robots.txt aside: 1).
//
// The site's own URLs (max_site_checks and the time budget): with --site-urls S the page also
// links to S pages of the site (a loopback server as site.bench.test, the same latency) outside
// the crawl; at most --max-site-checks of them are asked (default 5,000), the others stored
// unchecked; --budget-ms B gives the batch a deadline B ms from the end's start (and the time
// budget B, so the check step's grace is B/10): what is not asked by then is stored unchecked.
//
//   npx tsx bench/link-checks.ts [--urls 300] [--hosts 3] [--latency 200] [--delay 0]
//     [--site-urls 0] [--max-site-checks 5000] [--budget-ms B]
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { analyze, fetchSiteFile } from '../src/analyzer/index.js';
import { configFromEnv } from '../src/config.js';
import { createDb, migrate } from '../src/store/database.js';
import { insertPageLinks } from '../src/store/batch-links.repository.js';
import { createServices } from '../src/services/index.js';
import { embeddedQueue } from '../src/jobs/index.js';

const { values: args } = parseArgs({
  options: {
    urls: { type: 'string', default: '300' },
    hosts: { type: 'string', default: '3' },
    latency: { type: 'string', default: '200' },
    delay: { type: 'string', default: '0' },
    'site-urls': { type: 'string', default: '0' },
    'max-site-checks': { type: 'string', default: '5000' },
    'budget-ms': { type: 'string' },
  },
});
const N = Number(args.urls);
const H = Number(args.hosts);
const LATENCY = Number(args.latency);
const DELAY = Number(args.delay);
const S = Number(args['site-urls']);
const MAX_SITE = Number(args['max-site-checks']);
const BUDGET = args['budget-ms'] === undefined ? null : Number(args['budget-ms']);

interface Host {
  server: Server;
  port: number;
  requests: number;
  /** the redirects' second hop (/landing) */
  hops: number;
  inFlight: number;
  maxInFlight: number;
  /** TCP connections accepted */
  connections: number;
}
async function slowHost(): Promise<Host> {
  const h = { requests: 0, hops: 0, inFlight: 0, maxInFlight: 0, connections: 0 } as Host;
  h.server = createServer((req, res) => {
    h.requests++;
    if (req.url === '/landing') h.hops++;
    h.inFlight++;
    h.maxInFlight = Math.max(h.maxInFlight, h.inFlight);
    setTimeout(() => {
      h.inFlight--;
      const n = Number(/\d+/.exec(req.url ?? '')?.[0] ?? 0);
      // one URL in ten is missing, one in ten redirects
      const status = req.url === '/robots.txt' ? 404 : n % 10 === 3 ? 404 : n % 10 === 7 ? 301 : 200;
      res.writeHead(status, status === 301 ? { location: '/landing' } : { 'content-type': 'text/html' });
      res.end();
    }, LATENCY);
  });
  // Node's default: an idle connection stays open 5 s, as most servers keep one
  h.server.keepAliveTimeout = 5000;
  h.server.on('connection', () => h.connections++);
  await new Promise<void>((r) => h.server.listen(0, '127.0.0.1', r));
  h.port = (h.server.address() as AddressInfo).port;
  return h;
}
const hosts = await Promise.all(Array.from({ length: H }, slowHost));
const siteHost = await slowHost();

const dir = mkdtempSync(join(tmpdir(), 'pagegrade-link-checks-'));
const databaseUrl = `sqlite:${join(dir, 'bench.db')}`;
const handle = createDb(databaseUrl);
const db = handle.db;
await migrate(db);
const config = configFromEnv({
  DATABASE_URL: databaseUrl,
  PAGEGRADE_ALLOW_PRIVATE_HOSTS: '1',
  ...(BUDGET !== null ? { PAGEGRADE_BATCH_TIME_BUDGET_MS: String(BUDGET) } : {}),
});
const lookup = async () => [{ address: '127.0.0.1', family: 4 }];
const services = createServices({
  db,
  queue: embeddedQueue(db),
  analyze,
  config,
  fetchFile: (url, o = {}) => fetchSiteFile(url, { ...o, lookup }),
});
const { organization: owner } = await services.users.create(`bench-${Date.now()}`);
const origin = `http://site.bench.test:${siteHost.port}`;
const now = new Date().toISOString();
const { id: batchId } = await db
  .insertInto('batches')
  .values({
    org_id: owner.id,
    mode: 'crawl',
    url: `${origin}/`,
    project: 'site.bench.test',
    options: JSON.stringify({
      maxPages: 1,
      maxDepth: 0,
      include: [],
      exclude: [],
      privacy: 0,
      checkExternal: true,
      maxExternalChecks: N,
      maxSiteChecks: MAX_SITE,
    }),
    status: 'running',
    delay_ms: DELAY,
    // the time budget from the end's start (without --budget-ms: none past the check step's grace)
    deadline_at: BUDGET !== null ? Date.now() + BUDGET : 0,
    discovered: 1,
    audited: 1,
    created_at: now,
    updated_at: now,
  })
  .returning('id')
  .executeTakeFirstOrThrow();
const facts = {
  title: 'Home',
  description: null,
  canonical: null,
  hreflang: [],
  noindex: false,
  links: Array.from({ length: S }, (_, i) => `${origin}/page-${i}`),
  nofollow: [],
};
const { id: pageId } = await db
  .insertInto('batch_pages')
  .values({
    batch_id: batchId,
    url: `${origin}/`,
    depth: 0,
    state: 'done',
    status_code: 200,
    facts: JSON.stringify({
      ...facts,
      redirected: false,
      result: 'good',
      score: 90,
      failed: [],
      totalMs: 1,
      htmlBytes: 1,
    }),
    created_at: now,
    updated_at: now,
  })
  .returning('id')
  .executeTakeFirstOrThrow();
const links = Array.from({ length: N }, (_, i) => ({
  url: `http://ext-${i % H}.bench.test:${hosts[i % H]!.port}/page-${i}`,
  anchor: `link ${i}`,
  rel: null,
  nofollow: false,
  internal: false,
}));
await insertPageLinks(db, batchId, pageId, links);

const t0 = performance.now();
await services.batches.end(batchId);
const ms = performance.now() - t0;
const ended = await services.batches.get(owner.id, batchId);
const stored = await services.batches.results(owner.id, batchId);
const count = (id: string) => stored.findings.find((f) => f.id === id)?.pages.length ?? 0;
const requests = hosts.reduce((s, h) => s + h.requests, 0);
if (S > 0) {
  const checks = await db
    .selectFrom('batch_checks')
    .select(['verdict', 'error'])
    .where('batch_id', '=', batchId)
    .where('kind', '=', 'internal')
    .execute();
  const why = (re: RegExp) =>
    checks.filter((c) => c.verdict === 'unchecked' && re.test(c.error ?? '')).length;
  console.log(
    `site: ${S} internal URLs, max_site_checks ${MAX_SITE}${BUDGET !== null ? `, budget ${BUDGET} ms` : ''}: ${siteHost.requests} requests (${siteHost.hops} redirect hops), ${why(/max_site_checks/)} over the cap, ${why(/time budget/)} out of time; most in flight ${siteHost.maxInFlight}; ${siteHost.connections} connections`,
  );
}
const hops = hosts.reduce((s, h) => s + h.hops, 0);
console.log(
  `${N} external URLs on ${H} hosts, ${LATENCY} ms a request, delay ${DELAY} ms: batch ${ended.status} in ${(ms / 1000).toFixed(1)} s`,
);
console.log(
  `throughput: ${(N / (ms / 1000)).toFixed(1)} URLs/s (the per-host bound: ${((H * 1000) / (LATENCY + DELAY)).toFixed(1)} URLs/s)`,
);
console.log(`max in flight per host: ${hosts.map((h) => h.maxInFlight).join(', ')}`);
console.log(
  `connections per host: ${hosts.map((h) => h.connections).join(', ')} (requests per host: ${hosts.map((h) => h.requests).join(', ')})`,
);
console.log(
  `requests: ${requests} (${H} robots.txt, ${hops} redirect hops): ${((requests - H - hops) / N).toFixed(2)} a URL`,
);
console.log(
  `findings: broken_external_links ${count('broken_external_links')}, redirected_external_links ${count('redirected_external_links')}`,
);
await Promise.all([...hosts, siteHost].map((h) => new Promise((r) => h.server.close(r))));
await handle.close();
rmSync(dir, { recursive: true, force: true });
