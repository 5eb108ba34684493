// A project's crawl request settings as request headers (docs/sites.md, "Settings"): its
// headers, its cookies as one Cookie header, basic auth as Authorization — decrypted with
// PAGEGRADE_SECRET_KEY for a crawl's jobs (src/services/batches/request-settings.ts), which send
// them to the site's origin only. The values are handed to the fetcher and nowhere else.
import type { Db } from '../../store/database.js';
import { findProjectSettings } from '../../store/projects.repository.js';
import { AppError } from '../../errors.js';
import { decodeSettings, type Secrets, type StoredSettings } from './settings.js';

/** The request headers of a project's settings; null when it sets none. */
function requestHeaders(settings: StoredSettings, secrets: Secrets): Record<string, string> | null {
  const headers: Record<string, string> = { ...secrets.headers };
  const cookies = Object.entries(secrets.cookies).map(([name, value]) => `${name}=${value}`);
  // a Cookie header among the headers and the cookies: both are sent, in one header
  if (cookies.length > 0) headers.cookie = [headers.cookie, ...cookies].filter(Boolean).join('; ');
  // basic auth takes the place of an Authorization header of the headers
  if (settings.basic_auth_username !== null && secrets.password !== null) {
    const pair = `${settings.basic_auth_username}:${secrets.password}`;
    headers.authorization = `Basic ${Buffer.from(pair, 'utf8').toString('base64')}`;
  }
  return Object.keys(headers).length > 0 ? headers : null;
}

/**
 * The request headers of `userId`'s project `project` ({} when it has no such settings), or why
 * they cannot be used: its secrets cannot be decrypted (PAGEGRADE_SECRET_KEY unset or changed).
 */
export async function projectRequestHeaders(
  db: Db,
  secretKey: string | null,
  userId: number,
  project: string,
): Promise<{ headers?: Record<string, string>; error?: string }> {
  const row = await findProjectSettings(db, userId, project);
  if (!row || row.secrets === null) return {};
  let decoded: { settings: StoredSettings; secrets: Secrets };
  try {
    decoded = decodeSettings(secretKey, row, true);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const why = Object.values(err.fields ?? {})[0]?.[0] ?? err.message;
    return { error: `The project's crawl request settings cannot be used: ${why}` };
  }
  const headers = requestHeaders(decoded.settings, decoded.secrets);
  return headers ? { headers } : {};
}
