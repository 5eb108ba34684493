// The dashboard's "Audit a whole site" form (POST /dashboard/batches): its state, as the page
// route keeps it across a 422, and its view. The batches list (batches.ts) shows it.
import { html, type SafeHtml } from './html.js';
import { fieldError, invalid, option } from './forms.js';

/** a batch's mode as the dashboard names it */
export const MODE_LABELS: Record<string, string> = {
  crawl: 'Crawl from a start page',
  sitemap: 'The pages of a sitemap',
  list: 'A list of URLs',
};

export interface BatchFormState {
  mode: string;
  url: string;
  urls: string;
  maxPages: string;
  maxDepth: string;
  include: string;
  exclude: string;
  privacy: string;
  /** "Render JavaScript" ticked: every page is a rendered audit */
  render: boolean;
  /** custom extraction: one extractor a line (NAME[@ATTRIBUTE][*]=css|xpath|regex:EXPRESSION) */
  extractors: string;
  /** "Check links to other sites" ticked (check_external), and its cap */
  checkExternal: boolean;
  maxExternalChecks: string;
  /** the site's own URLs checked at most (max_site_checks): empty, the default */
  maxSiteChecks: string;
  /** the findings' thresholds (thin_content_words, near_duplicate_threshold, deep_page_depth): empty, the defaults */
  thinContentWords: string;
  nearDuplicateThreshold: string;
  deepPageDepth: string;
  errors: Record<string, string[]>;
}

export const emptyBatchForm = (): BatchFormState => ({
  mode: 'crawl',
  url: '',
  urls: '',
  maxPages: '',
  maxDepth: '',
  include: '',
  exclude: '',
  privacy: '0',
  render: false,
  extractors: '',
  checkExternal: false,
  maxExternalChecks: '',
  maxSiteChecks: '',
  thinContentWords: '',
  nearDuplicateThreshold: '',
  deepPageDepth: '',
  errors: {},
});

export function createBatchForm(csrf: string, f: BatchFormState): SafeHtml {
  const e = f.errors;
  return html`<section class="card" aria-labelledby="batch-create-title">
  <h2 id="batch-create-title">Audit a whole site</h2>
  <p class="muted">Every page becomes an ordinary report. The crawler asks for at most two pages at a time, obeys robots.txt and stays on the site.</p>
  <form method="post" action="/dashboard/batches" class="batch-form" data-busy="Starting the batch…">
    <input type="hidden" name="_csrf" value="${csrf}">
    <div class="field">
      <label for="batch-mode">What to audit</label>
      <select id="batch-mode" name="mode"${invalid(e, 'mode', 'batch-mode-error')}>${Object.entries(MODE_LABELS).map(([v, l]) => option(v, l, f.mode))}</select>
      ${fieldError(e, 'mode', 'batch-mode-error')}
    </div>
    <div class="field field--grow">
      <label for="batch-url">Start page, sitemap or site</label>
      <input id="batch-url" name="url" type="text" inputmode="url" autocomplete="url" autocapitalize="none" spellcheck="false" maxlength="2048" placeholder="https://example.com/" value="${f.url}"${invalid(e, 'url', 'batch-url-error')}>
      <p class="field__hint" id="batch-url-hint">Crawl: the page to start from. Sitemap: a sitemap, a sitemap index or the site's root. A list: may stay empty (the first URL's site).</p>
      ${fieldError(e, 'url', 'batch-url-error')}
    </div>
    <div class="field field--wide">
      <label for="batch-urls">URLs (a list: one a line, at most 1,000)</label>
      <textarea id="batch-urls" name="urls" rows="4" spellcheck="false" placeholder="https://example.com/a&#10;https://example.com/b"${invalid(e, 'urls', 'batch-urls-error')}>${f.urls}</textarea>
      ${fieldError(e, 'urls', 'batch-urls-error')}
    </div>
    <div class="field">
      <label for="batch-max-pages">At most this many pages</label>
      <input id="batch-max-pages" name="max_pages" type="number" inputmode="numeric" min="1" placeholder="100" value="${f.maxPages}"${invalid(e, 'max_pages', 'batch-max-pages-error')}>
      ${fieldError(e, 'max_pages', 'batch-max-pages-error')}
    </div>
    <details class="field field--wide batch-more"${f.maxDepth || f.include || f.exclude || f.extractors || f.checkExternal || f.maxExternalChecks || f.maxSiteChecks || f.thinContentWords || f.nearDuplicateThreshold || f.deepPageDepth || e.thin_content_words || e.near_duplicate_threshold || e.deep_page_depth || e.max_depth || e.include || e.exclude || e.extractors || e.check_external || e.max_external_checks || e.max_site_checks ? ' open' : ''}>
      <summary>More options: depth, URL patterns, links to other sites, custom extraction</summary>
      <div class="batch-form">
        <div class="field">
          <label for="batch-max-depth">Links followed from the start (crawl)</label>
          <input id="batch-max-depth" name="max_depth" type="number" inputmode="numeric" min="0" max="100" placeholder="10" value="${f.maxDepth}"${invalid(e, 'max_depth', 'batch-max-depth-error')}>
          ${fieldError(e, 'max_depth', 'batch-max-depth-error')}
        </div>
        <div class="field field--grow">
          <label for="batch-include">Only URLs matching (one pattern a line; * any characters)</label>
          <textarea id="batch-include" name="include" rows="2" spellcheck="false" placeholder="/blog/*"${invalid(e, 'include', 'batch-include-error')}>${f.include}</textarea>
          ${fieldError(e, 'include', 'batch-include-error')}
        </div>
        <div class="field field--grow">
          <label for="batch-exclude">No URL matching</label>
          <textarea id="batch-exclude" name="exclude" rows="2" spellcheck="false" placeholder="/tag/*"${invalid(e, 'exclude', 'batch-exclude-error')}>${f.exclude}</textarea>
          ${fieldError(e, 'exclude', 'batch-exclude-error')}
        </div>
        <div class="field field--wide">
          <label for="batch-extractors">Custom extraction (one a line, at most 10)</label>
          <textarea id="batch-extractors" name="extractors" rows="3" spellcheck="false" aria-describedby="batch-extractors-hint" placeholder="price=css:.price&#10;brand@content=xpath://meta[@itemprop='brand']&#10;gtm=regex:GTM-([A-Z0-9]+)"${invalid(e, 'extractors', 'batch-extractors-error')}>${f.extractors}</textarea>
          <p class="field__hint" id="batch-extractors-hint">NAME=css:, xpath: or regex: then the expression; NAME@ATTRIBUTE takes an attribute's value, NAME* every match. Each becomes a column of the pages table and the exports.</p>
          ${fieldError(e, 'extractors', 'batch-extractors-error')}
        </div>
        <div class="field">
          <label class="choice" for="batch-check-external"><input id="batch-check-external" name="check_external" type="checkbox" value="1"${f.checkExternal ? ' checked' : ''}${e.check_external?.length ? html` aria-invalid="true" aria-describedby="batch-check-external-error"` : html` aria-describedby="batch-check-external-hint"`}> Check links to other sites</label>
          <p class="field__hint" id="batch-check-external-hint">Each link to another site is asked once at the end, one request at a time per site.</p>
          ${fieldError(e, 'check_external', 'batch-check-external-error')}
        </div>
        <div class="field">
          <label for="batch-max-external-checks">At most this many links to other sites checked</label>
          <input id="batch-max-external-checks" name="max_external_checks" type="number" inputmode="numeric" min="1" max="10000" placeholder="500" value="${f.maxExternalChecks}"${invalid(e, 'max_external_checks', 'batch-max-external-checks-error')}>
          ${fieldError(e, 'max_external_checks', 'batch-max-external-checks-error')}
        </div>
        <div class="field">
          <label for="batch-max-site-checks">At most this many of the site's own links and files checked</label>
          <input id="batch-max-site-checks" name="max_site_checks" type="number" inputmode="numeric" min="1" max="100000" placeholder="5000" value="${f.maxSiteChecks}"${e.max_site_checks?.length ? invalid(e, 'max_site_checks', 'batch-max-site-checks-error') : html` aria-describedby="batch-max-site-checks-hint"`}>
          <p class="field__hint" id="batch-max-site-checks-hint">Links to pages the crawl did not audit, images, stylesheets, scripts and fonts: each asked once at the end.</p>
          ${fieldError(e, 'max_site_checks', 'batch-max-site-checks-error')}
        </div>
        <div class="field">
          <label for="batch-thin-content-words">Thin content: main text under this many words</label>
          <input id="batch-thin-content-words" name="thin_content_words" type="number" inputmode="numeric" min="1" max="10000" placeholder="200" value="${f.thinContentWords}"${invalid(e, 'thin_content_words', 'batch-thin-content-words-error')}>
          ${fieldError(e, 'thin_content_words', 'batch-thin-content-words-error')}
        </div>
        <div class="field">
          <label for="batch-near-duplicate-threshold">Near duplicates: at least this similar (%)</label>
          <input id="batch-near-duplicate-threshold" name="near_duplicate_threshold" type="number" inputmode="numeric" min="50" max="99" placeholder="90" value="${f.nearDuplicateThreshold}"${invalid(e, 'near_duplicate_threshold', 'batch-near-duplicate-threshold-error')}>
          ${fieldError(e, 'near_duplicate_threshold', 'batch-near-duplicate-threshold-error')}
        </div>
        <div class="field">
          <label for="batch-deep-page-depth">Deep pages: more links than this from the start page</label>
          <input id="batch-deep-page-depth" name="deep_page_depth" type="number" inputmode="numeric" min="1" max="100" placeholder="4" value="${f.deepPageDepth}"${invalid(e, 'deep_page_depth', 'batch-deep-page-depth-error')}>
          ${fieldError(e, 'deep_page_depth', 'batch-deep-page-depth-error')}
        </div>
      </div>
    </details>
    <div class="field">
      <label for="batch-privacy">Reports are</label>
      <select id="batch-privacy" name="privacy"${invalid(e, 'privacy', 'batch-privacy-error')}>${option('0', 'Public', f.privacy)}${option('1', 'Private', f.privacy)}</select>
      ${fieldError(e, 'privacy', 'batch-privacy-error')}
    </div>
    <div class="field">
      <label class="choice" for="batch-render"><input id="batch-render" name="render" type="checkbox" value="1"${f.render ? ' checked' : ''}${e.render?.length ? html` aria-invalid="true" aria-describedby="batch-render-error"` : html` aria-describedby="batch-render-hint"`}> Render JavaScript</label>
      <p class="field__hint" id="batch-render-hint">Each page is rendered in a browser and judged as visitors see it; a crawl follows the links scripts add. Slower.</p>
      ${fieldError(e, 'render', 'batch-render-error')}
    </div>
    <div class="field field--submit">
      <button type="submit" class="button button--primary">Start batch</button>
    </div>
    <p class="busy" aria-live="polite" hidden></p>
  </form>
</section>`;
}
