// GitLab's REST API (v4) with plain fetch: a commit status (`POST /projects/:id/statuses/:sha`)
// and one merge-request note edited in place (found by its marker among every page of notes).
// The token goes in `Authorization: Bearer` (personal, project and group access tokens and
// OAuth tokens alike). No retries; each failure becomes one sentence without the token.
import { PACKAGE } from '../package-info.js';
import { commentBody, descriptionOf, isOurs } from './comment.js';
import type { GitLabTarget, PublishArgs, PublishOutcome, PublishState } from './types.js';

/** GitLab takes notes of up to 1,000,000 characters. */
const NOTE_LIMIT = 1_000_000;

const STATES: Record<PublishState, 'running' | 'success' | 'failed'> = {
  pending: 'running',
  success: 'success',
  failure: 'failed',
  error: 'failed',
};

class GitLabError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The message GitLab answered with: `{"message": …}` or `{"error": …}`, else the status text. */
async function messageOf(res: Response): Promise<string> {
  const text = await res.text().catch(() => '');
  try {
    const body = JSON.parse(text) as { message?: unknown; error?: unknown };
    const m = body.message ?? body.error;
    if (m !== undefined) return typeof m === 'string' ? m : JSON.stringify(m);
  } catch {
    // not JSON: the status text below
  }
  return res.statusText || text.slice(0, 200);
}

export async function publishToGitLab(target: GitLabTarget, args: PublishArgs): Promise<PublishOutcome> {
  const out: PublishOutcome = { platform: 'gitlab', status: null, comment: null, errors: [], notes: [] };
  const signal = AbortSignal.timeout(target.timeoutMs);
  const base = `${target.apiUrl}/projects/${encodeURIComponent(target.project)}`;
  const call = async (method: string, path: string, body?: object): Promise<Response> => {
    const res = await fetch(`${base}${path}`, {
      method,
      signal,
      headers: {
        authorization: `Bearer ${target.token.reveal()}`,
        accept: 'application/json',
        'user-agent': `pagegrade/${PACKAGE.version}`,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    if (!res.ok) throw new GitLabError(res.status, await messageOf(res));
    return res;
  };
  const fail = (what: string, err: unknown) => {
    const e = err as Error & { status?: number; cause?: { message?: string } };
    const said =
      err instanceof GitLabError
        ? `HTTP ${e.status}: ${e.message}`
        : signal.aborted
          ? `no answer within ${target.timeoutMs} ms`
          : (e.cause?.message ?? e.message);
    out.errors.push(target.token.scrub(`GitLab ${what} (${target.apiUrl}): ${said}`));
  };

  try {
    const state = STATES[args.state];
    const res = await call('POST', `/statuses/${encodeURIComponent(target.sha)}`, {
      state,
      name: target.context,
      description: descriptionOf(args),
      ...(args.targetUrl ? { target_url: args.targetUrl } : {}),
      ...(target.pipelineId !== null ? { pipeline_id: target.pipelineId } : {}),
    }).catch((err: unknown) => {
      // GitLab refuses to set a status to the state it already has ("Cannot transition status
      // via :run from :running"): the commit already says what we would post
      if (err instanceof GitLabError && err.status === 400 && /cannot transition status/i.test(err.message))
        return null;
      throw err;
    });
    out.status = { kind: 'status', id: res ? ((await res.json()) as { id: number }).id : null };
  } catch (err) {
    fail('commit status', err);
  }

  if (!target.comment) return out;
  if (target.mergeRequest === null) {
    out.notes.push('GitLab: no merge request (not a merge request pipeline, and none configured): no note');
    return out;
  }
  const notes = `/merge_requests/${target.mergeRequest}/notes`;
  try {
    let ours: { id: number } | undefined;
    for (let page: string | null = '1'; page && !ours;) {
      const res = await call('GET', `${notes}?per_page=100&page=${page}&sort=asc&order_by=created_at`);
      const list = (await res.json()) as { id: number; body: string; system?: boolean }[];
      ours = list.find((n) => !n.system && isOurs(n.body, target.key));
      page = res.headers.get('x-next-page') || null;
    }
    const body = commentBody(target, args, NOTE_LIMIT);
    const res = ours
      ? await call('PUT', `${notes}/${ours.id}`, { body })
      : await call('POST', notes, { body });
    const note = (await res.json()) as { id: number };
    out.comment = { id: note.id, action: ours ? 'updated' : 'created', url: null };
  } catch (err) {
    fail(`note on merge request !${target.mergeRequest}`, err);
  }
  return out;
}
