// A doctype is judged by the rendering mode the HTML standard assigns it (§13.2.6.4.1): quirks
// and limited-quirks fail (no doctype, one after other markup, HTML 4.01 Transitional/Frameset,
// XHTML 1.0 Transitional/Frameset, pre-4.01 DTDs…); a legacy doctype that renders in standards
// mode (HTML 4.01 Strict, XHTML 1.0 Strict, XHTML 1.1, "about:legacy-compat") passes, with a
// message that <!DOCTYPE html> is the modern form.
import type { Doctype } from '../../artifacts/types.js';
import type { CheckDefinition } from '../types.js';
import { clip } from '../types.js';

/** public identifier prefixes that put browsers in quirks mode (HTML standard, "quirks mode"), lower-cased */
const QUIRKS_PREFIXES = [
  '+//silmaril//dtd html pro v0r11 19970101//',
  '-//as//dtd html 3.0 aswedit + extensions//',
  '-//advasoft ltd//dtd html 3.0 aswedit + extensions//',
  '-//ietf//dtd html 2.0',
  '-//ietf//dtd html 2.1e//',
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
  title: 'The doctype selects standards mode',
  failTitle: 'The page lacks a doctype that selects standards mode',
  howToFix:
    'Start the document with <!DOCTYPE html> as its very first line (before any element or text) so every browser renders it in standards mode.',
  failsWhen:
    'judged by the rendering mode the HTML standard assigns (§13.2.6.4.1): fails with no doctype, a doctype after other markup, or one that selects quirks or limited-quirks mode (HTML 4.01 Transitional/Frameset, XHTML 1.0 Transitional/Frameset, older DTDs). A legacy doctype that selects standards mode (HTML 4.01 Strict, XHTML 1.0 Strict, XHTML 1.1) passes, with a message that `<!DOCTYPE html>` is the modern form',
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
      // judged by the mode it triggers: a legacy doctype that selects standards mode is fine
      return {
        passed: true,
        message: `The doctype ${written} is a legacy (pre-HTML5) declaration that renders in standards mode; <!DOCTYPE html> is the modern form.`,
        value: written,
      };
    }
    return { passed: true, message: `The page starts with ${written} (standards mode).`, value: written };
  },
};

export default check;
