// A project limit as a key or a member is given one (`--project`, `projects: [...]`): the names
// as stored (SPEC §2: lower-cased, a trailing dot and one leading www. removed — the analyzer's
// projectName, repeated here so that the CLI's account commands do not load the analyzer),
// without repeats; null for none. Shared by the keys (accounts) and the members (organizations).

/** A project name as stored. */
export const projectName = (name: string): string =>
  name
    .trim()
    .toLowerCase()
    .replace(/\.$/, '')
    .replace(/^www\./, '');

const HOST = /^[a-z0-9.[\]:_-]{1,253}$/;

/** The limit as stored (null: every project), or the 422 message for `projects`. */
export function projectLimit(
  projects: readonly string[] | null | undefined,
): { projects: string[] | null } | { error: string } {
  if (!projects || projects.length === 0) return { projects: null };
  const names = [...new Set(projects.map(projectName))];
  if (names.length > 100 || names.some((p) => !HOST.test(p)))
    return { error: 'The projects must be 1 to 100 host names, such as example.com.' };
  return { projects: names };
}
