// The findings' thresholds as request fields: a batch's (POST /api/v1/batches) and a project's
// settings take the same three, with the same bounds (src/crawl/defaults.ts FINDING_SETTINGS).
import { Type } from 'typebox';
import { FINDING_SETTINGS } from '../crawl/defaults.js';

/** The findings' thresholds (docs/sites.md "Every finding"), a batch's and a project's settings alike. */
export function findingSettingsFields() {
  const field = (name: keyof typeof FINDING_SETTINGS, what: string) => {
    const f = FINDING_SETTINGS[name];
    return Type.Optional(
      Type.Integer({
        minimum: f.min,
        maximum: f.max,
        description: `${what} (default ${f.default}; ${f.min} to ${f.max}).`,
      }),
    );
  };
  return {
    thin_content_words: field(
      'thin_content_words',
      'thin_content: pages whose main text has fewer words than this',
    ),
    near_duplicate_threshold: field(
      'near_duplicate_threshold',
      'near_duplicates: pages at least this similar, in percent',
    ),
    deep_page_depth: field(
      'deep_page_depth',
      'deep_pages: pages more links than this away from the start page',
    ),
  };
}
