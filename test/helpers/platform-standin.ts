// A stand-in for GitHub's and GitLab's REST APIs on 127.0.0.1, for the pull-request tests
// (issue 23 §3): it records every request (method, path with query, headers, JSON body) and
// answers the endpoints src/integrations uses as the platforms do — GitHub under /api/v3 (as
// GitHub Enterprise), GitLab under /api/v4 — with their pagination (GitHub's Link header,
// GitLab's X-Next-Page), their auth refusal (401) and GitLab's refusal to post a status in the
// state it already has (400 "Cannot transition status"). The real platforms are never reached.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  /** the path and query, e.g. /api/v3/repos/o/r/issues/7/comments?per_page=100&page=2 */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

export interface StoredComment {
  id: number;
  body: string;
  system?: boolean;
}

export interface PlatformStandIn {
  /** http://127.0.0.1:<port> */
  origin: string;
  /** GitHub's API base, `${origin}/api/v3` */
  githubApi: string;
  /** GitLab's API base, `${origin}/api/v4` */
  gitlabApi: string;
  requests: RecordedRequest[];
  /** issue (pull request) number → its comments, oldest first */
  githubComments: Map<number, StoredComment[]>;
  /** merge request IID → its notes, oldest first */
  gitlabNotes: Map<number, StoredComment[]>;
  /** check runs made, by id */
  checkRuns: Map<number, { name: string; head_sha: string; [k: string]: unknown }>;
  /** GitLab statuses: `${sha} ${name}` → the last state */
  gitlabStatuses: Map<string, string>;
  /** when set, every answer is this one (status, JSON body) */
  failWith: { status: number; body: unknown } | null;
  close(): Promise<void>;
}

/** `token` is what an Authorization header must carry (GitHub: `token X`, GitLab: `Bearer X`). */
export async function startPlatformStandIn(token: string): Promise<PlatformStandIn> {
  let nextId = 1000;
  const s: PlatformStandIn = {
    origin: '',
    githubApi: '',
    gitlabApi: '',
    requests: [],
    githubComments: new Map(),
    gitlabNotes: new Map(),
    checkRuns: new Map(),
    gitlabStatuses: new Map(),
    failWith: null,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
    res.end(JSON.stringify(body));
  };

  /** a page of `list`, with the platform's paging headers */
  const page = <T>(url: URL, list: T[], style: 'github' | 'gitlab') => {
    const per = Math.min(Number(url.searchParams.get('per_page') ?? 30) || 30, 100);
    const n = Math.max(Number(url.searchParams.get('page') ?? 1) || 1, 1);
    const last = Math.max(1, Math.ceil(list.length / per));
    const items = list.slice((n - 1) * per, n * per);
    const headers: Record<string, string> = {};
    const at = (p: number) => {
      const u = new URL(url);
      u.searchParams.set('page', String(p));
      return u.href;
    };
    if (style === 'github' && n < last)
      headers.link = `<${at(n + 1)}>; rel="next", <${at(last)}>; rel="last"`;
    if (style === 'gitlab') {
      headers['x-next-page'] = n < last ? String(n + 1) : '';
      headers['x-total-pages'] = String(last);
      headers['x-page'] = String(n);
    }
    return { items, headers };
  };

  const github = (req: IncomingMessage, res: ServerResponse, url: URL, path: string, body: unknown) => {
    if (req.headers.authorization !== `token ${token}`)
      return send(res, 401, {
        message: 'Bad credentials',
        documentation_url: 'https://docs.github.com/rest',
      });
    const b = (body ?? {}) as Record<string, unknown>;
    let m: RegExpMatchArray | null;
    if (req.method === 'POST' && (m = path.match(/^\/repos\/[^/]+\/[^/]+\/statuses\/([0-9a-f]+)$/)))
      return send(res, 201, { id: nextId++, ...b, sha: m[1] });
    if (req.method === 'GET' && (m = path.match(/^\/repos\/[^/]+\/[^/]+\/commits\/([^/]+)\/check-runs$/))) {
      const name = url.searchParams.get('check_name');
      const runs = [...s.checkRuns.values()].filter(
        (r) => r.head_sha === m![1] && (name === null || r.name === name),
      );
      return send(res, 200, { total_count: runs.length, check_runs: runs.reverse() });
    }
    if (req.method === 'POST' && /^\/repos\/[^/]+\/[^/]+\/check-runs$/.test(path)) {
      const run = { id: nextId++, ...b } as { id: number; name: string; head_sha: string };
      s.checkRuns.set(run.id, run);
      return send(res, 201, run);
    }
    if (req.method === 'PATCH' && (m = path.match(/^\/repos\/[^/]+\/[^/]+\/check-runs\/(\d+)$/))) {
      const run = s.checkRuns.get(Number(m[1]));
      if (!run) return send(res, 404, { message: 'Not Found' });
      Object.assign(run, b);
      return send(res, 200, run);
    }
    if ((m = path.match(/^\/repos\/[^/]+\/[^/]+\/issues\/(\d+)\/comments$/))) {
      const list = s.githubComments.get(Number(m[1])) ?? [];
      s.githubComments.set(Number(m[1]), list);
      if (req.method === 'GET') {
        const { items, headers } = page(url, list, 'github');
        return send(res, 200, items, headers);
      }
      if (req.method === 'POST') {
        const c = { id: nextId++, body: String(b.body), html_url: `${s.origin}/pr/${m[1]}#c${nextId}` };
        list.push(c);
        return send(res, 201, c);
      }
    }
    if (req.method === 'PATCH' && (m = path.match(/^\/repos\/[^/]+\/[^/]+\/issues\/comments\/(\d+)$/))) {
      const c = [...s.githubComments.values()].flat().find((x) => x.id === Number(m![1]));
      if (!c) return send(res, 404, { message: 'Not Found' });
      c.body = String(b.body);
      return send(res, 200, { ...c, html_url: `${s.origin}/c${c.id}` });
    }
    return send(res, 404, { message: 'Not Found' });
  };

  const gitlab = (req: IncomingMessage, res: ServerResponse, url: URL, path: string, body: unknown) => {
    if (req.headers.authorization !== `Bearer ${token}`)
      return send(res, 401, { message: '401 Unauthorized' });
    const b = (body ?? {}) as Record<string, unknown>;
    let m: RegExpMatchArray | null;
    if (req.method === 'POST' && (m = path.match(/^\/projects\/([^/]+)\/statuses\/([0-9a-f]+)$/))) {
      const key = `${m[2]} ${String(b.name)}`;
      if (s.gitlabStatuses.get(key) === b.state)
        return send(res, 400, {
          message: `Cannot transition status via :${String(b.state)} from :${String(b.state)}`,
        });
      s.gitlabStatuses.set(key, String(b.state));
      return send(res, 201, { id: nextId++, sha: m[2], ...b, status: b.state });
    }
    if ((m = path.match(/^\/projects\/([^/]+)\/merge_requests\/(\d+)\/notes$/))) {
      const list = s.gitlabNotes.get(Number(m[2])) ?? [];
      s.gitlabNotes.set(Number(m[2]), list);
      if (req.method === 'GET') {
        const { items, headers } = page(url, list, 'gitlab');
        return send(res, 200, items, headers);
      }
      if (req.method === 'POST') {
        const n = { id: nextId++, body: String(b.body), system: false };
        list.push(n);
        return send(res, 201, n);
      }
    }
    if (
      req.method === 'PUT' &&
      (m = path.match(/^\/projects\/([^/]+)\/merge_requests\/(\d+)\/notes\/(\d+)$/))
    ) {
      const n = (s.gitlabNotes.get(Number(m[2])) ?? []).find((x) => x.id === Number(m![3]));
      if (!n) return send(res, 404, { message: '404 Not found' });
      n.body = String(b.body);
      return send(res, 200, n);
    }
    return send(res, 404, { message: '404 Not Found' });
  };

  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    let body: unknown = null;
    try {
      body = text === '' ? null : JSON.parse(text);
    } catch {
      body = text;
    }
    const url = new URL(req.url ?? '/', s.origin);
    s.requests.push({
      method: req.method ?? '',
      path: `${url.pathname}${url.search}`,
      headers: req.headers,
      body,
    });
    if (s.failWith) return send(res, s.failWith.status, s.failWith.body);
    if (url.pathname.startsWith('/api/v3/')) return github(req, res, url, url.pathname.slice(7), body);
    if (url.pathname.startsWith('/api/v4/')) return gitlab(req, res, url, url.pathname.slice(7), body);
    send(res, 404, { message: 'Not Found' });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  s.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  s.githubApi = `${s.origin}/api/v3`;
  s.gitlabApi = `${s.origin}/api/v4`;
  return s;
}
