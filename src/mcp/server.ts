// The MCP server (docs/mcp.md): the tools of tools.ts over any transport — stdio
// (`pagegrade mcp`, src/cli/mcp.ts) or streamable HTTP (/mcp, src/mcp/http.ts). Every call is
// checked as an API request is: the caller's key (asked for again at each call: a key revoked
// or a role lowered takes effect at once), the access table's rule for the tool's operation,
// the project limit, then the arguments against the API's schema. A refusal, bad arguments or
// a service's error (404, 422) is a tool error the agent reads (`isError`), in the API's words.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { AppError, validationError } from '../errors.js';
import { PACKAGE } from '../package-info.js';
import { denial } from '../services/access/table.js';
import type { AuthContext } from '../services/accounts/types.js';
import type { Services } from '../services/types.js';
import { TOOLS, type Tool } from './tools.js';
import { checker, type Checked } from './validate.js';

export interface McpDeps {
  services: Services;
  publicUrl: string;
  /** the caller, asked for at each tool call; throws an AppError (401) when the key no longer works */
  actor: () => Promise<AuthContext>;
}

/** each tool's argument checker, compiled once */
const CHECKERS = new Map<string, (input: unknown) => Checked<unknown>>(
  TOOLS.map((t) => [t.name, checker<unknown>(t.input)]),
);

/** The tools as tools/list gives them: the input schema is the API's, as JSON Schema. */
const LISTED = TOOLS.map((t) => ({
  name: t.name,
  title: t.title,
  description: t.description,
  inputSchema: JSON.parse(JSON.stringify(t.input)) as { type: 'object'; properties?: Record<string, object> },
  annotations: {
    title: t.title,
    readOnlyHint: t.operation.endsWith('.read'),
    destructiveHint: false,
    // an audit or a crawl fetches pages of the open web
    openWorldHint: !t.operation.endsWith('.read'),
  },
}));

const text = (value: unknown): CallToolResult['content'] => [
  { type: 'text', text: JSON.stringify(value, null, 2) },
];

/** An error the agent reads: `{message, errors?}` as the API's error body. */
function toolError(err: AppError): CallToolResult {
  const body = err.fields ? { message: err.message, errors: err.fields } : { message: err.message };
  return { content: text(body), structuredContent: body, isError: true };
}

/** Whether the actor may call the tool: null, or the API's 403 message. */
function refusal(actor: AuthContext, t: Tool): string | null {
  const denied = denial(actor, t.operation);
  if (denied !== null) return denied;
  if (!t.projectScoped && actor.projects !== null)
    return `Forbidden: this API key is limited to projects (${actor.projects.join(', ')}); this operation needs a key for every project.`;
  return null;
}

async function call(deps: McpDeps, name: string, input: unknown): Promise<CallToolResult> {
  const t = TOOLS.find((x) => x.name === name);
  if (!t)
    throw new McpError(
      ErrorCode.InvalidParams,
      `Unknown tool: ${name}. The tools are: ${TOOLS.map((x) => x.name).join(', ')}.`,
    );
  try {
    const actor = await deps.actor();
    const refused = refusal(actor, t);
    if (refused !== null) return toolError(new AppError(403, 'forbidden', refused));
    const checked = CHECKERS.get(t.name)!(input);
    if (!checked.ok) return toolError(validationError(checked.errors));
    const result = (await t.run(
      { services: deps.services, actor, publicUrl: deps.publicUrl },
      checked.value as never,
    )) as Record<string, unknown>;
    return { content: text(result), structuredContent: result };
  } catch (err) {
    if (err instanceof AppError) return toolError(err);
    throw err;
  }
}

/** A new MCP server with Pagegrade's tools, for one connection (stdio) or one request (HTTP). */
export function createMcpServer(deps: McpDeps): McpServer {
  const mcp = new McpServer(
    { name: 'pagegrade', title: 'Pagegrade', version: PACKAGE.version },
    {
      capabilities: { tools: {} },
      instructions:
        'Pagegrade audits web pages (audit_url), keeps their reports and history (get_report, list_reports, compare_runs) and audits whole sites (start_crawl, get_crawl, compare_crawls). A tool the key may not use answers an error naming the role or scope it needs.',
    },
  );
  mcp.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: LISTED }));
  mcp.server.setRequestHandler(CallToolRequestSchema, (request) =>
    call(deps, request.params.name, request.params.arguments),
  );
  return mcp;
}
