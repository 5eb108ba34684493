// The command as `npm ci` builds it (issue 8, a CLI that starts fast; docs/architecture.md):
// bin/pagegrade.js runs a CommonJS bundle (audit.cjs for `pagegrade audit`, cli.cjs for the
// rest) from the build's V8 code cache, without Node's ES module loader, and what the bundle defers (undici's HTTP/2 client, TLS, crypto,
// commander's child_process) loads when a command needs it: an https page that speaks HTTP/2
// is audited through them. Needs a current build (npm run build; CI's npm ci makes one).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createSecureServer, type Http2SecureServer } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '../helpers/cli.js';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.js';
import { makeCert } from '../helpers/tls-cert.js';

const { distIsCurrent } = (await import('../../scripts/dist-state.cjs')) as { distIsCurrent(): boolean };
const root = fileURLToPath(new URL('../..', import.meta.url));
const bundles = { cli: join(root, 'dist/bundle/cli.cjs'), audit: join(root, 'dist/bundle/audit.cjs') };
const recorder = join(root, 'test/helpers/start-recorder.cjs');
const noBundle = !distIsCurrent()
  ? 'dist/ is not a current build of src/ (run npm run build): the CLI runs the sources'
  : Object.values(bundles).some((b) => !existsSync(b) || !existsSync(`${b}.v8cache`))
    ? 'the build made no CLI bundles or code caches (esbuild missing?)'
    : null;

const PAGE =
  '<!doctype html><html lang="en"><head><title>Bundle</title><meta name="description" content="A page."></head><body><h1>Bundle</h1><a href="/a">A page</a></body></html>';

interface StartLog {
  scripts: { filename: string; cachedData: boolean; rejected: boolean }[];
  modules: string[];
}

let dir: string;
let site: FixtureServer;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pagegrade-bundle-'));
  site = await startFixtureServer({ '/': { body: PAGE } });
});
after(async () => {
  await site.close();
  rmSync(dir, { recursive: true, force: true });
});

let runs = 0;
/** Runs the command with the recorder preloaded; its log, and the run. */
async function recorded(args: string[], env: Record<string, string> = {}, nodeArgs: string[] = []) {
  const log = join(dir, `start-${++runs}.json`);
  const r = await runCli(
    args,
    { PAGEGRADE_ALLOW_PRIVATE_HOSTS: '1', ...env, PAGEGRADE_START_LOG: log },
    { nodeArgs: [...nodeArgs, '--require', recorder] },
  );
  const started = existsSync(log) ? (JSON.parse(readFileSync(log, 'utf8')) as StartLog) : null;
  return { r, started };
}

const builtin = (log: StartLog, name: string) => log.modules.includes(`NativeModule ${name}`);

describe('the built command', () => {
  test('runs its bundle from the code cache, without the ES module loader', async (t) => {
    if (noBundle) return t.skip(noBundle);
    const runs: [string[], string][] = [
      [['--version'], bundles.cli],
      [['--help'], bundles.cli],
      [['audit', `${site.origin}/`, '--json'], bundles.audit],
      [['audit', '--help'], bundles.audit],
    ];
    for (const [args, file] of runs) {
      const { r, started } = await recorded(args);
      assert.ok(r.code === 0 || r.code === 1, r.stderr);
      assert.ok(started, 'the recorder wrote its log');
      assert.deepEqual(
        started.scripts,
        [{ filename: file, cachedData: true, rejected: false }],
        args.join(' '),
      );
      assert.ok(
        !builtin(started, 'internal/modules/esm/loader'),
        `${args.join(' ')} started no ES module loader`,
      );
    }
  });

  test('the audit bundle gives the same help and errors as the whole program', async (t) => {
    if (noBundle) return t.skip(noBundle);
    const alone = await runCli(['audit', '--help']);
    assert.equal(alone.code, 0);
    assert.match(alone.stdout, /^Usage: pagegrade audit \[options\] <url>/);
    // `help audit` is the whole program's (cli.cjs) help of the command: the same text
    assert.equal((await runCli(['help', 'audit'])).stdout, alone.stdout);
    const wrong = await runCli(['audit', `${site.origin}/`, '--fail-on', 'never']);
    assert.equal(wrong.code, 2);
    assert.match(wrong.stderr, /Allowed choices are decent, bad/);
  });

  test('an http audit loads neither HTTP/2, TLS, crypto nor child_process', async (t) => {
    if (noBundle) return t.skip(noBundle);
    const { r, started } = await recorded(['audit', `${site.origin}/`, '--json']);
    assert.ok(r.code === 0 || r.code === 1, r.stderr);
    const report = JSON.parse(r.stdout) as { page: { http_version: string }; score: number };
    assert.equal(report.page.http_version, '1.1');
    assert.ok(report.score > 0);
    for (const name of ['http2', 'tls', 'crypto', 'child_process'])
      assert.ok(!builtin(started!, name), `${name} not loaded`);
  });

  test('a cache that does not fit (other V8 flags) is refused and the command still works', async (t) => {
    if (noBundle) return t.skip(noBundle);
    const { r, started } = await recorded(['audit', `${site.origin}/`, '--json'], {}, [
      '--no-lazy-feedback-allocation',
    ]);
    assert.ok(r.code === 0 || r.code === 1, r.stderr);
    assert.deepEqual(started!.scripts, [{ filename: bundles.audit, cachedData: true, rejected: true }]);
    assert.equal((JSON.parse(r.stdout) as { url: string }).url, `${site.origin}/`);
  });

  describe('https with HTTP/2: the deferred modules load when needed', () => {
    const made = makeCert('IP:127.0.0.1');
    let h2: Http2SecureServer;
    let origin = '';
    let caFile = '';
    before(async () => {
      if (typeof made === 'string') return;
      caFile = join(dir, 'ca.pem');
      writeFileSync(caFile, made.cert);
      h2 = createSecureServer({ ...made, allowHTTP1: true }, (req, res) => {
        res.writeHead(req.url === '/' ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
        res.end(PAGE);
      });
      await new Promise<void>((r) => h2.listen(0, '127.0.0.1', r));
      origin = `https://127.0.0.1:${(h2.address() as AddressInfo).port}`;
    });
    after(async () => {
      if (typeof made !== 'string') await new Promise((r) => h2.close(r));
    });

    test('pagegrade audit of an https page served over HTTP/2', async (t) => {
      if (noBundle) return t.skip(noBundle);
      if (typeof made === 'string') return t.skip(made);
      // the self-signed certificate trusted the way a user trusts an internal CA
      const { r, started } = await recorded(['audit', `${origin}/`, '--json'], {
        NODE_EXTRA_CA_CERTS: caFile,
      });
      assert.ok(r.code === 0 || r.code === 1, r.stderr);
      const report = JSON.parse(r.stdout) as { page: { http_version: string; status: number } };
      assert.equal(report.page.status, 200);
      assert.equal(report.page.http_version, '2');
      for (const name of ['http2', 'tls']) assert.ok(builtin(started!, name), `${name} loaded for the page`);
    });
  });
});
