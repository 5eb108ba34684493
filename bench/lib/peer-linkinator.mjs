// A measured process of bench/crawl-peers.ts: linkinator (the devDependency, its API — the same
// crawl as `npx linkinator URL --recurse --concurrency N`) checks the loopback site from its home
// page. Environment: PEER_URL, PEER_CONCURRENCY. Sends {type:'result', pages, links, broken, ms,
// maxRssKb} and exits. Plain JavaScript, run by node without a loader.
import { performance } from 'node:perf_hooks';
import { check } from 'linkinator';

const url = process.env.PEER_URL;
const concurrency = Number(process.env.PEER_CONCURRENCY ?? 8);
const c0 = process.cpuUsage();
const t0 = performance.now();
const result = await check({ path: url, recurse: true, concurrency, timeout: 30_000 });
const ms = performance.now() - t0;
const cpu = process.cpuUsage(c0);
const cpuMs = (cpu.user + cpu.system) / 1000;
const origin = new URL(url).origin;
// the HTML pages it fetched: the site's pages (/ and /p/N) that answered, each checked once
const pages = new Set(
  result.links
    .filter(
      (l) => l.state === 'OK' && l.url.startsWith(origin) && /^\/(p\/\d+)?$/.test(new URL(l.url).pathname),
    )
    .map((l) => l.url),
).size;
const broken = result.links.filter((l) => l.state === 'BROKEN').length;
process.send(
  {
    type: 'result',
    pages,
    links: result.links.length,
    broken,
    ms,
    cpuMs,
    maxRssKb: process.resourceUsage().maxRSS,
  },
  () => process.exit(0),
);
