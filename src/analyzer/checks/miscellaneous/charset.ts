import type { CheckDefinition } from '../types.js';

const check: CheckDefinition = {
  id: 'charset',
  category: 'miscellaneous',
  priority: 'medium',
  title: 'The page declares its character encoding',
  failTitle: 'The page does not declare its character encoding',
  howToFix:
    'Declare the encoding in the Content-Type header (text/html; charset=utf-8) and as the first thing in the <head>: <meta charset="utf-8">.',
  failsWhen:
    'neither the `Content-Type` header, `<meta charset>`, `<meta http-equiv="Content-Type">` nor a BOM declares the encoding',
  needsContent: false,
  run(a) {
    const { header, meta, source } = a.charset;
    if (header !== null && meta !== null && header !== meta && !(isUtf8(header) && isUtf8(meta))) {
      return {
        passed: true,
        message: `The header declares ${header} and the page ${meta}; the header wins, so make them agree.`,
        value: header,
      };
    }
    if (header !== null)
      return { passed: true, message: `The Content-Type header declares ${header}.`, value: header };
    if (meta !== null)
      return { passed: true, message: `The page declares ${meta} in a <meta> tag.`, value: meta };
    if (source === 'bom')
      return {
        passed: true,
        message: `The page starts with a ${a.charset.name} byte order mark.`,
        value: a.charset.name,
      };
    return {
      passed: false,
      message: 'Neither the Content-Type header nor a <meta> tag declares a character encoding.',
      value: null,
    };
  },
};

function isUtf8(s: string): boolean {
  return s === 'utf-8' || s === 'utf8';
}

export default check;
