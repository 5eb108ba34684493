// `pagegrade mcp` (issue 23 §4; docs/mcp.md): the real command spawned by the SDK's own stdio
// client, over a SQLite file and a PostgreSQL database: the tool list, a real audit of a
// loopback page and its report read back, a crawl of a loopback site worked by the command's
// own job workers and its findings read, the crawls compared, a read-only key refused the
// audit naming the scope, bad arguments refused naming the field; a wrong or missing key is
// exit 2 before anything is served.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { analyze } from '../../src/analyzer/index.js';
import { embeddedQueue } from '../../src/jobs/index.js';
import { createServices } from '../../src/services/index.js';
import { createDb, migrate } from '../../src/store/database.js';
import { runCli } from '../helpers/cli.js';
import { testServicesConfig } from '../helpers/config.js';
import { dialects, type DialectSetup } from '../helpers/db.js';
import { goodPage, html, startFixtureServer, type FixtureServer } from '../helpers/fixture-server.js';

const bin = fileURLToPath(new URL('../../bin/pagegrade.js', import.meta.url));

const json = (r: CallToolResult) =>
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a tool's JSON, read by the asserts
  JSON.parse((r.content[0] as { text: string }).text) as Record<string, any>;

for (const dialect of dialects) {
  describe(`pagegrade mcp over stdio [${dialect.name}]`, { skip: dialect.skip }, () => {
    let setup: DialectSetup;
    let site: FixtureServer;
    let env: Record<string, string>;
    let writeKey: string;
    let readKey: string;
    const clients: Client[] = [];

    const connect = async (key: string) => {
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [bin, 'mcp'],
        env: { ...(process.env as Record<string, string>), ...env, PAGEGRADE_API_KEY: key },
        stderr: 'pipe',
      });
      let stderr = '';
      transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
      const client = new Client({ name: 'pagegrade-test', version: '1.0.0' });
      await client.connect(transport).catch((err: unknown) => {
        throw new Error(`${String(err)}\n${stderr}`);
      });
      clients.push(client);
      return client;
    };

    before(async () => {
      setup = await dialect.setup();
      site = await startFixtureServer();
      site.route('/', html(goodPage(site.origin, '<a href="/a">A</a> <a href="/b">B</a>')));
      site.route('/a', html(goodPage(site.origin, '<a href="/">Home</a>')));
      site.route('/soil', html(goodPage(site.origin)));
      site.route('/b', html('<html><body><p>thin</p><a href="/missing">gone</a></body></html>'));
      env = {
        DATABASE_URL: setup.databaseUrl,
        PAGEGRADE_ALLOW_PRIVATE_HOSTS: '1',
        PAGEGRADE_JOB_POLL_MS: '100',
        PAGEGRADE_LOG_LEVEL: 'warn',
      };
      // the keys, made on that database as `pagegrade users create` would
      const handle = createDb(setup.databaseUrl);
      try {
        await migrate(handle.db);
        const services = createServices({
          db: handle.db,
          analyze,
          config: { publicUrl: 'http://127.0.0.1:8080', ...testServicesConfig() },
          queue: embeddedQueue(handle.db),
        });
        const { key, user } = await services.users.create('agent');
        writeKey = key.key;
        readKey = (await services.keys.create(user.name, { scope: 'read' })).key;
      } finally {
        await handle.close();
      }
    });
    after(async () => {
      for (const c of clients) await c.close().catch(() => {});
      await site?.close();
      await setup?.cleanup();
    });

    test(
      'tools, a real audit, the report read back, a crawl worked and compared',
      { timeout: 120_000 },
      async () => {
        const client = await connect(writeKey);
        const { tools } = await client.listTools();
        assert.deepEqual(
          tools.map((t) => t.name),
          [
            'audit_url',
            'get_report',
            'list_reports',
            'compare_runs',
            'start_crawl',
            'get_crawl',
            'compare_crawls',
          ],
        );

        const audited = (await client.callTool({
          name: 'audit_url',
          arguments: { url: `${site.origin}/b` },
        })) as CallToolResult;
        assert.equal(audited.isError, undefined, JSON.stringify(audited.content));
        const a = json(audited);
        assert.equal(a.report.url, `${site.origin}/b`);
        assert.ok(
          a.failed_checks.some((c: { id: string }) => c.id === 'title_missing' || c.id.startsWith('title')),
        );
        const got = json(
          (await client.callTool({ name: 'get_report', arguments: { id: a.report.id } })) as CallToolResult,
        );
        assert.equal(got.report.score, a.report.score);
        assert.deepEqual(got.failed_checks, a.failed_checks);

        // a crawl: this command's own workers audit the pages
        const crawl = async () => {
          const started = json(
            (await client.callTool({
              name: 'start_crawl',
              arguments: { url: `${site.origin}/`, mode: 'crawl', max_pages: 5 },
            })) as CallToolResult,
          );
          for (let i = 0; i < 300; i++) {
            const read = json(
              (await client.callTool({ name: 'get_crawl', arguments: { id: started.id } })) as CallToolResult,
            );
            if (['done', 'failed', 'cancelled'].includes(read.batch.status)) return read;
            await new Promise((r) => setTimeout(r, 200));
          }
          throw new Error('the crawl did not finish');
        };
        const first = await crawl();
        assert.equal(first.batch.status, 'done', JSON.stringify(first.batch));
        assert.deepEqual(
          first.pages.map((p: { url: string }) => p.url).sort(),
          [
            `${site.origin}/`,
            `${site.origin}/a`,
            `${site.origin}/b`,
            `${site.origin}/missing`,
            `${site.origin}/soil`,
          ].sort(),
        );
        const broken = first.findings.find((f: { id: string }) => f.id === 'broken_links');
        assert.ok(broken, `broken_links among ${first.findings.map((f: { id: string }) => f.id).join(', ')}`);

        // the page /b fixed, a second crawl compared with the first
        site.route('/b', html(goodPage(site.origin, '<a href="/">Home</a>')));
        const second = await crawl();
        const diff = json(
          (await client.callTool({
            name: 'compare_crawls',
            arguments: { id: second.batch.id },
          })) as CallToolResult,
        );
        assert.equal(diff.from.id, first.batch.id);
        assert.equal(diff.to.id, second.batch.id);
        const fixed = diff.findings.find((f: { id: string }) => f.id === 'broken_links');
        assert.equal(fixed?.state, 'fixed', JSON.stringify(diff.findings));
        assert.ok(diff.pages.changed.some((c: { url: string }) => c.url === `${site.origin}/b`));
      },
    );

    test(
      'a read-only key: the audit refused naming the scope; bad arguments name the field',
      { timeout: 60_000 },
      async () => {
        const client = await connect(readKey);
        const refused = (await client.callTool({
          name: 'audit_url',
          arguments: { url: `${site.origin}/` },
        })) as CallToolResult;
        assert.equal(refused.isError, true);
        assert.equal(json(refused).message, 'Forbidden: this API key lacks the write scope (it has: read).');
        const listed = (await client.callTool({
          name: 'list_reports',
          arguments: { per_page: 10 },
        })) as CallToolResult;
        assert.equal(listed.isError, undefined);
        const bad = (await client.callTool({
          name: 'get_crawl',
          arguments: { id: 'seven' },
        })) as CallToolResult;
        assert.equal(bad.isError, true);
        assert.match(json(bad).errors.id[0], /^The id must be a whole number of at least 1/);
      },
    );

    test('a wrong or missing key: exit 2 before anything is served', { timeout: 60_000 }, async () => {
      const wrong = await runCli(['mcp', '--key', 'pg_wrongwrongwrongwrongwrongwrongwr'], env);
      assert.equal(wrong.code, 2, wrong.stderr);
      assert.match(wrong.stderr, /the API key is unknown or revoked/);
      assert.equal(wrong.stdout, '', 'stdout is the protocol: nothing else on it');
      const none = await runCli(['mcp'], { ...env, PAGEGRADE_API_KEY: '' });
      assert.equal(none.code, 2);
      assert.match(none.stderr, /pass --key <key> or set PAGEGRADE_API_KEY/);
    });
  });
}
