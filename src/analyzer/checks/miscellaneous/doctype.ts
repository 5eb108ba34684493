// <!DOCTYPE html> first in the document; anything else risks quirks or limited-quirks mode.
import type { Doctype } from '../../artifacts/types.js';
import type { CheckDefinition } from '../types.js';
import { clip } from '../types.js';

/** public identifier prefixes that put browsers in quirks mode (HTML standard, "quirks mode"), lower-cased */
const QUIRKS_PREFIXES = [
  '+//silmaril//dtd html pro v0r11 19970101//',
  '-//as//dtd html 3.0 aswedit + extensions//',
  '-//advasoft ltd//dtd html 3.0 aswedit + extensions//',
  '-//ietf//dtd html 2.0',
  '-//ietf//dtd html 3',
  '-//ietf//dtd html level',
  '-//ietf//dtd html strict',
  '-//ietf//dtd html//',
  '-//metrius//dtd metrius presentational//',
  '-//microsoft//dtd internet explorer',
  '-//netscape comm. corp.//dtd',
  "-//o'reilly and associates//dtd html",
  '-//softquad software//dtd hotmetal pro',
  '-//softquad//dtd hotmetal pro',
  '-//spyglass//dtd html 2.0 extended//',
  '-//sq//dtd html 2.0 hotmetal + extensions//',
  '-//sun microsystems corp.//dtd hotjava',
  '-//w3c//dtd html 3',
  '-//w3c//dtd html 4.0 frameset//',
  '-//w3c//dtd html 4.0 transitional//',
  '-//w3c//dtd html experimental',
  '-//w3c//dtd w3 html//',
  '-//w3o//dtd w3 html 3.0//',
  '-//webtechs//dtd mozilla html',
];
const QUIRKS_EXACT = new Set([
  '-//w3o//dtd w3 html strict 3.0//en//',
  '-/w3c/dtd html 4.0 transitional/en',
  'html',
]);

export type RenderingMode = 'quirks' | 'limited-quirks' | 'standards';

/** The rendering mode a doctype selects (HTML standard §13.2.6.4.1). */
export function renderingMode(d: Doctype | null): RenderingMode {
  if (d === null || !d.first || d.name !== 'html') return 'quirks';
  const pub = d.publicId?.toLowerCase() ?? null;
  const sys = d.systemId?.toLowerCase() ?? null;
  if (sys === 'http://www.ibm.com/data/dtd/v11/ibmxhtml1-transitional.dtd') return 'quirks';
  if (pub !== null) {
    if (QUIRKS_EXACT.has(pub) || QUIRKS_PREFIXES.some((p) => pub.startsWith(p))) return 'quirks';
    const html401Loose =
      pub.startsWith('-//w3c//dtd html 4.01 frameset//') ||
      pub.startsWith('-//w3c//dtd html 4.01 transitional//');
    if (html401Loose) return sys === null ? 'quirks' : 'limited-quirks';
    if (
      pub.startsWith('-//w3c//dtd xhtml 1.0 frameset//') ||
      pub.startsWith('-//w3c//dtd xhtml 1.0 transitional//')
    ) {
      return 'limited-quirks';
    }
  }
  return 'standards';
}

const check: CheckDefinition = {
  id: 'doctype',
  category: 'miscellaneous',
  priority: 'medium',
  title: 'The page declares the HTML5 doctype',
  failTitle: 'The page lacks the HTML5 doctype',
  howToFix:
    'Start the document with <!DOCTYPE html> as its very first line (before any element or text) so every browser renders it in standards mode.',
  failsWhen:
    'no doctype, a doctype after other markup, a quirks or limited-quirks doctype, or a legacy (pre-HTML5) doctype',
  needsContent: true,
  run(a) {
    const d = a.doctype;
    if (d === null) {
      return {
        passed: false,
        message: 'The page has no <!DOCTYPE> declaration, so browsers render it in quirks mode.',
        value: null,
      };
    }
    const written = `<!${clip(d.raw, 160)}>`;
    const mode = renderingMode(d);
    if (!d.first) {
      return {
        passed: false,
        message: `The doctype ${written} comes after other markup, so browsers ignore it and render the page in quirks mode.`,
        value: written,
      };
    }
    if (mode === 'quirks') {
      return {
        passed: false,
        message: `The doctype ${written} puts browsers in quirks mode.`,
        value: written,
      };
    }
    if (mode === 'limited-quirks') {
      return {
        passed: false,
        message: `The doctype ${written} selects limited-quirks mode (legacy table-cell image layout); use <!DOCTYPE html>.`,
        value: written,
      };
    }
    const sys = d.systemId?.toLowerCase() ?? null;
    if (d.publicId !== null || (sys !== null && sys !== 'about:legacy-compat')) {
      return {
        passed: false,
        message: `The doctype ${written} is a legacy (pre-HTML5) declaration; it renders in standards mode but <!DOCTYPE html> is the current one.`,
        value: written,
      };
    }
    return { passed: true, message: `The page starts with ${written} (standards mode).`, value: written };
  },
};

export default check;
