// The findings of the links to other sites (check_external; docs/sites.md "Links and resources
// checked"): each (page, link) once, judged by the link's check.
import { answerOf } from './context.js';
import type { CheckedUrl, FindingContext, FindingPage } from './types.js';

/** The pages' external links whose check says `keep`, each with its detail. */
export function externalLinks(
  ctx: FindingContext,
  keep: (c: CheckedUrl) => boolean,
  detail: (target: string, c: CheckedUrl) => string,
): FindingPage[] {
  const out: FindingPage[] = [];
  for (const { source, target } of ctx.graph?.external ?? []) {
    const c = ctx.graph?.checks?.get(target);
    if (c && keep(c)) out.push({ url: source, detail: detail(target, c) });
  }
  return out;
}

export const answer = (target: string, c: CheckedUrl): string => `${target} (${answerOf(c)})`;
