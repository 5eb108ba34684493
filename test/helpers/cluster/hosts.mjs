// The cluster test's two small hosts (docs/testing.md, "Cluster test"), each started inside its
// own network namespace by test/cluster/cluster.cluster.ts:
//
//   node hosts.mjs site <address[,address…]> <port> <latency ms> <pages> <slow latency ms>
//     a generated site under any path prefix /<p>/: /<p>/ is page 0, /<p>/n/<i> page i (i < pages);
//     page i links to pages 10i+1 … 10i+10, so a crawl from /<p>/ reaches every page; every answer
//     waits <latency ms> (<slow latency ms> under a prefix that starts with `slow`). robots.txt
//     allows everything. With several addresses it answers on each (one log): the same site under
//     several host names, as several projects.
//   node hosts.mjs hook <address> <port> <delay ms>
//     a webhook receiver: each POST is answered 200 after <delay ms>.
//
// Both log every request (path, client address, webhook-id, start and end times) and answer
// GET /__log with the log as JSON (`open`: requests begun but not answered yet).
import { createServer } from 'node:http';

const [mode, address, portText, waitText, pagesText] = process.argv.slice(2);
const port = Number(portText);
const waitMs = Number(waitText);
const pages = Number(pagesText ?? 0);
const slowMs = Number(process.argv[7] ?? waitMs);
const log = [];

function page(prefix, i) {
  const links = [];
  for (let c = 10 * i + 1; c <= 10 * i + 10 && c < pages; c++)
    links.push(`<li><a href="/${prefix}/n/${c}">Page ${c}</a></li>`);
  const self = i === 0 ? `/${prefix}/` : `/${prefix}/n/${i}`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>Cluster site ${prefix} page ${i}</title>
<meta name="description" content="Page ${i} of the generated cluster test site ${prefix}, served with a fixed latency.">
<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="canonical" href="${self}"></head>
<body><header><a href="/${prefix}/">Home</a></header><main><h1>Page ${i}</h1>
<p>This is page ${i} of a generated site of ${pages} pages; it exists to be crawled by several worker hosts.</p>
<ul>${links.join('')}</ul></main></body></html>`;
}

const handler = (req, res) => {
  const entry = {
    path: req.url,
    from: req.socket.remoteAddress?.replace(/^::ffff:/, ''),
    id: req.headers['webhook-id'] ?? null,
    start: Date.now(),
    end: null,
    body: null,
  };
  if (req.url === '/__log') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(log));
    return;
  }
  log.push(entry);
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    if (mode === 'hook') entry.body = Buffer.concat(chunks).toString();
    setTimeout(
      () => {
        entry.end = Date.now();
        if (mode === 'hook') {
          res.writeHead(200, { 'content-type': 'text/plain' });
          res.end('ok');
          return;
        }
        if (req.url === '/robots.txt') {
          res.writeHead(200, { 'content-type': 'text/plain' });
          res.end('User-agent: *\nAllow: /\n');
          return;
        }
        const m = /^\/([a-z0-9]+)\/(?:n\/(\d+))?$/.exec(req.url ?? '');
        const i = m ? Number(m[2] ?? 0) : -1;
        if (!m || i >= pages) {
          res.writeHead(404, { 'content-type': 'text/plain' });
          res.end('not found');
          return;
        }
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(page(m[1], i));
      },
      req.url?.startsWith('/slow') ? slowMs : waitMs,
    );
  });
};
for (const one of address.split(',')) {
  const server = createServer(handler);
  server.keepAliveTimeout = 30_000;
  server.listen(port, one, () => console.log(`${mode} listening on ${one}:${port}`));
}
process.on('SIGTERM', () => process.exit(0));
