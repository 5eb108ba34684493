// The fetcher loads undici's Client and Pool from their own modules (src/analyzer/fetch/undici.ts,
// for a fast start). In a process that never loads undici's index, a Client from there must make
// requests (the request API on the prototype); and they must be the very classes the package
// exports, or an undici upgrade has moved them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

test('without the index: a Client from the deep modules makes a request', () => {
  const code = `
    import { createServer } from 'node:http';
    import { createRequire } from 'node:module';
    const { Client } = await import('./src/analyzer/fetch/undici.ts');
    const loaded = Object.keys(createRequire(import.meta.url).cache);
    if (loaded.some((f) => /undici[\\\\/]index\\.js$/.test(f))) throw new Error('the index was loaded');
    const server = createServer((q, r) => r.end('ok')).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const client = new Client('http://127.0.0.1:' + server.address().port);
    const res = await client.request({ path: '/', method: 'GET' });
    console.log(res.statusCode, await res.body.text(), loaded.length);
    await client.close();
    server.close();
  `;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stderr);
  const [status, body, modules] = r.stdout.trim().split(' ');
  assert.equal(status, '200');
  assert.equal(body, 'ok');
  assert.ok(Number(modules) < 60, `${modules} CommonJS modules loaded`);
});

test('they are the classes undici exports', async () => {
  const undici = await import('undici');
  const { Client, Pool } = await import('../../src/analyzer/fetch/undici.js');
  assert.equal(Client, undici.Client);
  assert.equal(Pool, undici.Pool);
});
