// MCP over streamable HTTP at /mcp (issue 23 §4; docs/mcp.md), with the SDK's own Client and
// transport against the real app listening on loopback, on SQLite and PostgreSQL: the tool
// list, a real audit of a fixture page, the report read back with its failed checks and how to
// fix them, the list with its filters, two runs compared, a crawl started; the access table
// (a read-only key may read but not audit; every tool × every role as the table says); bad
// arguments refused naming the field; no key or a bad one is 401 as the API answers.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ACCESS, denial } from '../../src/services/access/table.js';
import { ROLES, type Role } from '../../src/services/accounts/types.js';
import { TOOLS } from '../../src/mcp/tools.js';
import { PUBLIC_URL, buildTestApp, describeEachDialect, type TestApp } from '../helpers/app.js';
import { buildUser, type TestUser } from '../helpers/factories.js';

const TOOL_NAMES = [
  'audit_url',
  'get_report',
  'list_reports',
  'compare_runs',
  'start_crawl',
  'get_crawl',
  'compare_crawls',
];

/** the tool's answer as JSON (its text content) */
const json = (r: CallToolResult) =>
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a tool's JSON, read by the asserts
  JSON.parse((r.content[0] as { text: string }).text) as Record<string, any>;

describeEachDialect('MCP over streamable HTTP', (dialect) => {
  let t: TestApp;
  let base: string;
  let owner: TestUser;
  let readKey: string;
  const clients: Client[] = [];

  const connect = async (key: string) => {
    const client = new Client({ name: 'pagegrade-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${key}` } },
      }),
    );
    clients.push(client);
    return client;
  };

  before(async () => {
    t = await buildTestApp(dialect, { logLevel: 'silent' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address() as { port: number };
    base = `http://127.0.0.1:${address.port}`;
    owner = await buildUser(t.services, 'mcp-owner');
    readKey = (await t.services.keys.create(owner.name, { scope: 'read' })).key;
  });
  after(async () => {
    for (const c of clients) await c.close().catch(() => {});
    await t?.close();
  });

  test('the tool list: every tool with the input schema of its API operation', async () => {
    const client = await connect(owner.key);
    assert.equal(client.getServerVersion()?.name, 'pagegrade');
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((x) => x.name),
      TOOL_NAMES,
    );
    const audit = tools.find((x) => x.name === 'audit_url')!;
    assert.deepEqual(audit.inputSchema.required, ['url']);
    assert.deepEqual(Object.keys(audit.inputSchema.properties ?? {}), [
      'url',
      'privacy',
      'password',
      'render',
    ]);
    const list = tools.find((x) => x.name === 'list_reports')!;
    assert.ok(
      'result' in (list.inputSchema.properties ?? {}) && 'per_page' in (list.inputSchema.properties ?? {}),
    );
    assert.equal(tools.find((x) => x.name === 'get_report')!.annotations?.readOnlyHint, true);
    assert.equal(audit.annotations?.readOnlyHint, false);
  });

  test('audit a loopback page, read the report with its failed checks, list, compare two runs', async () => {
    const client = await connect(owner.key);
    const url = `${t.site('shop')}/bad`;
    const audited = (await client.callTool({ name: 'audit_url', arguments: { url } })) as CallToolResult;
    assert.equal(audited.isError, undefined, JSON.stringify(audited.content));
    const a = json(audited);
    assert.equal(a.report.url, url);
    assert.equal(typeof a.report.score, 'number');
    assert.ok(a.failed_checks.length > 0, 'the poor page fails checks');
    assert.equal(a.checks.failed, a.failed_checks.length);
    for (const c of a.failed_checks) assert.ok(c.how_to_fix.length > 10, `${c.id} says how to fix it`);
    // high priority first
    const order = a.failed_checks.map((c: { priority: string }) =>
      ['high', 'medium', 'low'].indexOf(c.priority),
    );
    assert.deepEqual(
      order,
      [...order].sort((x: number, y: number) => x - y),
    );
    // the same report as the API has it
    const api = await t.request({ url: `/api/v1/reports/${a.report.id}`, headers: owner.auth });
    assert.equal(api.json().data.score, a.report.score);
    const failedInApi = Object.values(
      api.json().data.results as Record<string, { passed: boolean | null }>,
    ).filter((r) => r.passed === false).length;
    assert.equal(a.failed_checks.length, failedInApi);

    const got = json(
      (await client.callTool({ name: 'get_report', arguments: { id: a.report.id } })) as CallToolResult,
    );
    assert.deepEqual(got.failed_checks, a.failed_checks);
    assert.equal(got.report.links.page, `${PUBLIC_URL}/reports/${a.report.id}`);

    // a second audit of a good page, then the list with a filter
    await client.callTool({ name: 'audit_url', arguments: { url: `${t.site('shop')}/` } });
    const listed = json(
      (await client.callTool({
        name: 'list_reports',
        arguments: { project: 'shop.test', sort_by: 'score', sort: 'asc' },
      })) as CallToolResult,
    );
    assert.equal(listed.meta.total, 2);
    assert.deepEqual(
      listed.data.map((r: { url: string }) => r.url),
      [`${t.site('shop')}/bad`, `${t.site('shop')}/`],
    );

    // a second run of the first report: the page got better
    t.fixture.route('/bad', {
      status: 200,
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body: await (await fetch(`${t.fixture.origin}/`)).text(),
    });
    await t.services.reports.update(owner.id, a.report.id, { results: true });
    const diff = json(
      (await client.callTool({ name: 'compare_runs', arguments: { id: a.report.id } })) as CallToolResult,
    );
    assert.equal(diff.from.id, 1);
    assert.equal(diff.to.id, 2);
    assert.ok(diff.to.score > diff.from.score, `${diff.from.score} → ${diff.to.score}`);
    const run1 = json(
      (await client.callTool({
        name: 'get_report',
        arguments: { id: a.report.id, run: 1 },
      })) as CallToolResult,
    );
    assert.equal(run1.run.id, 1);
    assert.deepEqual(run1.failed_checks, a.failed_checks);
  });

  test('a crawl started over MCP is a batch the API shows; its findings are read', async () => {
    const client = await connect(owner.key);
    const started = json(
      (await client.callTool({
        name: 'start_crawl',
        arguments: { url: `${t.site('crawl')}/`, mode: 'crawl', max_pages: 2 },
      })) as CallToolResult,
    );
    assert.equal(started.mode, 'crawl');
    const api = await t.request({ url: `/api/v1/batches/${started.id}`, headers: owner.auth });
    assert.equal(api.statusCode, 200);
    const read = json(
      (await client.callTool({ name: 'get_crawl', arguments: { id: started.id } })) as CallToolResult,
    );
    assert.equal(read.batch.id, started.id);
    assert.ok(Array.isArray(read.findings) && Array.isArray(read.pages));
    // still running: the comparison says why not
    const cmp = (await client.callTool({
      name: 'compare_crawls',
      arguments: { id: started.id },
    })) as CallToolResult;
    assert.equal(cmp.isError, true);
    assert.ok(json(cmp).errors.id, JSON.stringify(json(cmp)));
  });

  test('a read-only key reads but may not audit: a tool error naming the scope', async () => {
    const client = await connect(readKey);
    const res = (await client.callTool({
      name: 'audit_url',
      arguments: { url: `${t.site('shop')}/` },
    })) as CallToolResult;
    assert.equal(res.isError, true);
    assert.equal(json(res).message, 'Forbidden: this API key lacks the write scope (it has: read).');
    const crawl = (await client.callTool({
      name: 'start_crawl',
      arguments: { url: `${t.site('shop')}/`, mode: 'crawl' },
    })) as CallToolResult;
    assert.match(json(crawl).message, /lacks the write scope/);
    const list = (await client.callTool({ name: 'list_reports', arguments: {} })) as CallToolResult;
    assert.equal(list.isError, undefined);
    assert.ok(json(list).meta.total >= 2);
  });

  test('every tool × every role is refused exactly where the access table says', async () => {
    const keys = {} as Record<Role, string>;
    for (const role of ROLES) {
      if (role === 'owner') {
        keys.owner = owner.key;
        continue;
      }
      const { user } = await t.services.users.create(`mcp-${role}`);
      await t.services.organizations.addMember(owner.name, user.name, role);
      keys[role] = (await t.services.keys.create(user.name, { org: owner.name })).key;
    }
    let refused = 0;
    for (const role of ROLES) {
      const client = await connect(keys[role]);
      for (const tool of TOOLS) {
        assert.ok(Object.hasOwn(ACCESS, tool.operation));
        // a placeholder id: a rule that lets the call through reaches the service (404)
        const res = (await client.callTool({ name: tool.name, arguments: { id: 999999 } })) as CallToolResult;
        const expected = denial(
          { role, scopes: role === 'viewer' ? ['read'] : ['read', 'write'] },
          tool.operation,
        );
        const body = json(res);
        if (expected !== null) {
          refused++;
          assert.equal(body.message, expected, `${role} ${tool.name}`);
        } else assert.doesNotMatch(String(body.message ?? ''), /^Forbidden/, `${role} ${tool.name}`);
      }
    }
    assert.equal(refused, 2, 'a viewer may neither audit nor crawl');
  });

  test('arguments are checked with the API schemas: a tool error naming the field', async () => {
    const client = await connect(owner.key);
    const noScheme = (await client.callTool({
      name: 'audit_url',
      arguments: { url: 'example.com/page' },
    })) as CallToolResult;
    assert.equal(noScheme.isError, true);
    assert.deepEqual(json(noScheme).errors, {
      url: ['The url must be an http or https URL; did you mean https://example.com/page?'],
    });
    const bad = json(
      (await client.callTool({
        name: 'list_reports',
        arguments: { per_page: 7, result: 'great', colour: 1 },
      })) as CallToolResult,
    );
    assert.deepEqual(Object.keys(bad.errors).sort(), ['colour', 'per_page', 'result']);
    assert.equal(bad.errors.per_page[0], 'The per_page must be one of: 10, 25, 50, 100.');
    assert.match(bad.errors.colour[0], /unknown; the fields are: search, /);
    const missing = json((await client.callTool({ name: 'get_report', arguments: {} })) as CallToolResult);
    assert.deepEqual(missing.errors, { id: ['The id field is required.'] });
    const gone = json(
      (await client.callTool({ name: 'get_report', arguments: { id: 999999 } })) as CallToolResult,
    );
    assert.equal(gone.message, 'No such report.');
    await assert.rejects(
      client.callTool({ name: 'no_such_tool', arguments: {} }),
      /Unknown tool: no_such_tool/,
    );
  });

  test('no key, or a bad one, is 401 with WWW-Authenticate as the API answers; GET is 405', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const none = await fetch(`${base}/mcp`, { method: 'POST', headers, body });
    assert.equal(none.status, 401);
    assert.equal(none.headers.get('www-authenticate'), 'Bearer');
    assert.deepEqual(await none.json(), {
      message: 'Unauthenticated: send Authorization: Bearer <API key>.',
    });
    const bad = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { ...headers, authorization: 'Bearer pg_not-a-real-key-not-a-real-key-00' },
      body,
    });
    assert.equal(bad.status, 401);
    assert.deepEqual(await bad.json(), { message: 'Unauthenticated: the API key is unknown or revoked.' });
    await assert.rejects(
      (async () => {
        const c = new Client({ name: 'x', version: '1' });
        await c.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
      })(),
      /401|Unauthenticated|Unauthorized/i,
    );
    const get = await fetch(`${base}/mcp`, { headers: { authorization: `Bearer ${owner.key}` } });
    assert.equal(get.status, 405);
    assert.equal(get.headers.get('allow'), 'POST');
  });
});
