import { llmsShape } from '../../artifacts/llms.js';
import { plural, type CheckDefinition } from '../types.js';

// AI readiness (never in the overall score: docs/checks.md): /llms.txt present and valid.
const check: CheckDefinition = {
  id: 'llms_txt',
  category: 'ai',
  priority: 'medium',
  title: 'The site has a valid /llms.txt',
  failTitle: 'The site has no valid /llms.txt',
  howToFix:
    'Publish /llms.txt in the proposed format (llmstxt.org): a first line `# Site name`, a `> summary` blockquote, then `## Section` headings over lists of `- [name](url): notes` links to the pages an AI agent should read.',
  failsWhen:
    '/llms.txt answers 4xx (missing), is an HTML page, or breaks the format: the first line not an H1, headings other than H2 after it, list items in a section without a leading Markdown link. 5xx or not fetched is not judged',
  needsContent: false,
  run(a) {
    const r = a.llms;
    if (r === null) return { passed: null, message: '/llms.txt was not fetched.' };
    if (r.status === null)
      return { passed: null, message: `/llms.txt could not be fetched (${r.error ?? 'no answer'}).` };
    if (r.status >= 500)
      return { passed: null, message: `/llms.txt answered ${r.status}; it could not be judged.` };
    if (r.status >= 400)
      return {
        passed: false,
        message: `The site has no /llms.txt (it answered ${r.status}).`,
        value: 'missing',
      };
    const shape = llmsShape(r.resource);
    if (shape.problems.length > 0)
      return {
        passed: false,
        message: `/llms.txt does not follow the format: ${shape.problems[0]}`,
        value: 'invalid',
        details: { type: 'list', items: shape.problems },
      };
    const parts = [
      `"${shape.title ?? ''}"`,
      shape.summary === null ? 'no summary blockquote' : 'a summary',
      plural(shape.sections, 'section'),
      plural(shape.links, 'link'),
    ];
    return { passed: true, message: `/llms.txt is valid: ${parts.join(', ')}.`, value: 'valid' };
  },
};

export default check;
