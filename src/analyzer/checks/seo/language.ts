import type { CheckDefinition } from '../types.js';

/** BCP 47 in practice: a 2–3 letter language (or i-/x- forms), then subtags of 1–8 letters/digits. */
const LANG_RE = /^(?:[a-z]{2,3}|[a-z]{5,8}|[ix](?:-[a-z0-9]{1,8})+)(?:-[a-z0-9]{1,8})*$/i;

const check: CheckDefinition = {
  id: 'language',
  category: 'seo',
  priority: 'medium',
  title: 'The page declares its language',
  failTitle: 'The page does not declare a valid language',
  howToFix:
    'Set the language of the page on its root element, e.g. <html lang="en">, so that search engines, translators and screen readers treat the text right.',
  failsWhen: '`<html>` has no `lang`, an empty one, or one that is not a BCP 47-shaped tag',
  needsContent: true,
  run(a) {
    const lang = a.htmlLang?.trim() ?? '';
    if (a.htmlLang === null)
      return { passed: false, message: 'The <html> element has no lang attribute.', value: null };
    if (lang === '') return { passed: false, message: 'The <html> lang attribute is empty.', value: '' };
    if (!LANG_RE.test(lang)) {
      return {
        passed: false,
        message: `"${lang}" is not a valid language tag (e.g. "en", "pt-BR").`,
        value: lang,
      };
    }
    return { passed: true, message: `The page's language is "${lang}".`, value: lang };
  },
};

export default check;
