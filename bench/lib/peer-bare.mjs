// A measured process of bench/crawl-peers.ts: the floor — a bare undici GET loop over the site's
// known page URLs (no parsing, no checks, no store), PEER_CONCURRENCY at a time over one keep-alive
// Agent, each body read to its end. Environment: PEER_ORIGIN, PEER_PAGES (paths / and /p/0 …
// /p/PEER_PAGES-2), PEER_CONCURRENCY. Sends {type:'result', pages, failed, ms, maxRssKb}.
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';

const origin = process.env.PEER_ORIGIN;
const total = Number(process.env.PEER_PAGES);
const concurrency = Number(process.env.PEER_CONCURRENCY ?? 8);
const paths = ['/', ...Array.from({ length: total - 1 }, (_, i) => `/p/${i}`)];
const dispatcher = new Agent({ connections: concurrency });
let next = 0;
let failed = 0;
const c0 = process.cpuUsage();
const t0 = performance.now();
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (next < paths.length) {
      const path = paths[next++];
      const res = await request(`${origin}${path}`, { dispatcher });
      await res.body.arrayBuffer();
      if (res.statusCode !== 200) failed += 1;
    }
  }),
);
const ms = performance.now() - t0;
const cpu = process.cpuUsage(c0);
const cpuMs = (cpu.user + cpu.system) / 1000;
await dispatcher.close();
process.send(
  { type: 'result', pages: paths.length, failed, ms, cpuMs, maxRssKb: process.resourceUsage().maxRSS },
  () => process.exit(0),
);
