// POST /mcp: the MCP server over streamable HTTP (docs/mcp.md), stateless — each request gets
// its own server and transport, so any instance behind a load balancer answers any request.
// The caller's API key is checked before this runs (src/app.ts registers the API's Bearer
// hook and rate limit in front of it: no key or a bad one answers 401 as the API does); each
// tool call then goes through the access table (src/mcp/server.ts). GET and DELETE (a
// server-to-client stream, a session's end) have no meaning without sessions: 405.
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { unauthorized } from '../errors.js';
import type { Services } from '../services/types.js';
import { createMcpServer } from './server.js';

export const MCP_PATH = '/mcp';

export interface McpRouteDeps {
  services: Services;
  publicUrl: string;
}

/** the headers set on the reply so far (request id, rate limit), for the hijacked response */
function carryHeaders(reply: FastifyReply): void {
  for (const [name, value] of Object.entries(reply.getHeaders()))
    if (value !== undefined) reply.raw.setHeader(name, value as string | number | string[]);
}

export const mcpRoutes: FastifyPluginAsync<McpRouteDeps> = async (app, { services, publicUrl }) => {
  app.post(MCP_PATH, async (request, reply) => {
    const auth = request.auth;
    if (!auth) throw unauthorized('Unauthenticated: send Authorization: Bearer <API key>.');
    // the key as this request's authentication found it (one request, one server)
    const mcp = createMcpServer({ services, publicUrl, actor: async () => auth });
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    reply.hijack();
    carryHeaders(reply);
    reply.raw.on('close', () => {
      void transport.close();
      void mcp.close();
    });
    await mcp.connect(transport);
    await transport.handleRequest(request.raw, reply.raw, request.body);
  });

  for (const method of ['GET', 'DELETE'] as const) {
    app.route({
      method,
      url: MCP_PATH,
      handler: (_request, reply) =>
        reply
          .code(405)
          .header('Allow', 'POST')
          .send({
            jsonrpc: '2.0',
            error: { code: -32000, message: 'Method not allowed: this server is stateless; send POST.' },
            id: null,
          }),
    });
  }
};
