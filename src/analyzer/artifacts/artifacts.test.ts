import { test } from 'node:test';
import assert from 'node:assert/strict';
import { artifactsFrom, snapshotFrom } from '../../../test/helpers/checks.js';
import { runChecks } from '../run-checks.js';
import { buildArtifacts, countWords } from './index.js';

test('artifacts: document facts from one pass', () => {
  const a = artifactsFrom(
    `<!DOCTYPE html><html lang="fr" dir="ltr"><head><base href="https://cdn.example.com/base/">
    <title>Le &amp; titre</title><meta name="Description" content="Desc"><meta property="og:title" content="OG">
    <link rel="Canonical" href="/canon"><link rel="alternate" hreflang="en" href="https://example.com/en">
    <script src="a.js" async></script><script type="module" src="m.js"></script>
    <script type="application/ld+json">{"@type":"Thing"}</script><style>p{}</style></head>
    <body><h1>Main <img src="x.png" alt="pic"></h1><h2>Sub</h2>
    <a href="/in" rel="nofollow noopener" target="_blank">In</a><a href="https://www.example.com/w">W</a>
    <a href="https://other.org/">Other</a><a href="mailto:x@y.org">Mail</a><a>none</a>
    <svg><title>svg title</title><a href="/svg">s</a></svg><link rel="stylesheet" href="late.css">
    <center><font>old</font></center><div style="x" itemscope itemtype="https://schema.org/Thing"></div></body></html>`,
  );
  assert.equal(a.doctype?.name, 'html');
  assert.equal(a.doctype?.first, true);
  assert.equal(a.htmlLang, 'fr');
  assert.equal(a.htmlDir, 'ltr');
  assert.deepEqual(a.titles, ['Le & titre']);
  assert.equal(a.metas.find((m) => m.name === 'description')?.content, 'Desc');
  assert.equal(a.metas.find((m) => m.property === 'og:title')?.inHead, true);
  assert.equal(a.baseHref, 'https://cdn.example.com/base/');
  const canon = a.links.find((l) => l.rel.includes('canonical'))!;
  assert.equal(canon.url, 'https://cdn.example.com/canon');
  assert.equal(canon.inHead, true);
  assert.equal(a.links.find((l) => l.rel.includes('stylesheet'))?.inHead, false);
  assert.equal(a.links.find((l) => l.hreflang === 'en')?.url, 'https://example.com/en');
  assert.deepEqual(a.headings, [
    { level: 1, text: 'Main pic' },
    { level: 2, text: 'Sub' },
  ]);
  assert.deepEqual(
    a.anchors.map((x) => [x.href, x.text, x.internal]),
    [
      ['/in', 'In', false], // resolved against <base>: cdn.example.com
      ['https://www.example.com/w', 'W', true],
      ['https://other.org/', 'Other', false],
      ['mailto:x@y.org', 'Mail', null],
      [null, 'none', null],
      ['/svg', 's', false],
    ],
  );
  assert.deepEqual(a.anchors[0]!.rel, ['nofollow', 'noopener']);
  assert.equal(a.scripts.length, 3);
  assert.deepEqual(
    a.scripts.map((s) => [s.async, s.module, s.nonExecutable, s.inHead]),
    [
      [true, false, false, true],
      [false, true, false, true],
      [false, false, true, true],
    ],
  );
  assert.deepEqual(a.jsonLd, ['{"@type":"Thing"}']);
  assert.equal(a.styles.length, 1);
  assert.deepEqual(a.deprecatedTags, { center: 1, font: 1 });
  assert.equal(a.styleAttrCount, 1);
  assert.equal(a.hasMicrodata, true);
  assert.deepEqual(a.microdataTypes, ['https://schema.org/Thing']);
  assert.deepEqual(a.emails, ['x@y.org']);
  assert.equal(a.requestCounts.scripts, 2);
  assert.equal(a.requestCounts.stylesheets, 1);
  assert.equal(a.requestCounts.images, 1);
  assert.equal(a.blocked, null);
});

test('artifacts: visible text, words, element count and depth', () => {
  const a = artifactsFrom(
    '<html><head><title>T</title></head><body><p>One <b>two</b>three</p><script>no words</script><noscript>hidden</noscript><template>tpl</template><div><div><span>four</span></div></div></body></html>',
  );
  assert.equal(a.text.replace(/\s+/g, ' ').trim(), 'One twothree four');
  assert.equal(a.textLength, 'One twothree four'.length);
  assert.equal(a.wordCount, 3);
  assert.equal(a.elementCount, 12);
  assert.equal(a.maxDepth, 5);
  assert.equal(countWords("l'été est là — 東京タワー"), 8);
});

test('artifacts: images carry position, picture sources and hidden state', () => {
  const a = artifactsFrom(
    '<body><img src="a.jpg" width="10" height="5" loading="LAZY"><picture><source type="image/webp" srcset="b.webp"><img src="b.jpg" alt=""></picture>' +
      '<noscript><img src="c.jpg"></noscript><img src="data:image/png;base64,AA"></body>',
  );
  const [i0, i1, i2, i3] = a.images;
  assert.equal(i0!.loading, 'lazy');
  assert.equal(i0!.alt, null);
  assert.equal(i0!.width, '10');
  assert.equal(i0!.likelyAboveFold, true);
  assert.deepEqual(i1!.pictureSourceTypes, ['image/webp']);
  assert.equal(i1!.alt, '');
  assert.equal(i2!.hidden, true);
  assert.equal(i3!.url, 'data:image/png;base64,AA');
  assert.equal(i3!.likelyAboveFold, false);
  assert.equal(a.requestCounts.images, 2);
});

test('artifacts: robots.txt and sitemap are parsed', () => {
  const a = artifactsFrom('<p>x</p>', {
    robotsTxt: 'User-agent: *\nDisallow: /private\nSitemap: https://example.com/s.xml',
    sitemapXml:
      '<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://example.com/a.xml?x=1&amp;y=2</loc></sitemap></sitemapindex>',
  });
  assert.equal(a.robots?.parsed?.isAllowed('https://example.com/private/x', 'Pagegrade'), false);
  assert.deepEqual(a.robots?.parsed?.getSitemaps(), ['https://example.com/s.xml']);
  assert.equal(a.sitemap?.isXml, true);
  assert.equal(a.sitemap?.isIndex, true);
  assert.deepEqual(a.sitemap?.urls, ['https://example.com/a.xml?x=1&y=2']);

  const bad = artifactsFrom('<p>x</p>', {
    robotsTxt: '<!DOCTYPE html><html><body>soft 404</body></html>',
    sitemapXml: '<urlset><url>',
  });
  assert.equal(bad.robots?.looksLikeHtml, true);
  assert.equal(bad.robots?.parsed, null);
  assert.equal(bad.sitemap?.isXml, false);
  assert.match(bad.sitemap?.parseError ?? '', /line 1/);
});

test('artifacts: site files shared by the pages of a batch are parsed once, and judged the same', () => {
  const sitemapXml = `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${Array.from(
    { length: 50 },
    (_, i) => `<url><loc>https://example.com/p/${i}</loc></url>`,
  ).join('')}<url><loc>https://other.example/x</loc></url></urlset>`;
  const first = snapshotFrom('<title>One</title>', { robotsTxt: 'User-agent: *\nAllow: /\n', sitemapXml });
  // a second page of the same site, handed the same robots.txt and sitemap objects (FetchOptions.siteFiles)
  const second = {
    ...snapshotFrom('<title>Two</title>', { url: 'https://example.com/p/2' }),
    robots: first.robots,
    sitemap: first.sitemap,
  };
  const a1 = buildArtifacts(first);
  const a2 = buildArtifacts(second);
  assert.equal(a1.sitemap, a2.sitemap, 'one parsed sitemap for both pages');
  assert.equal(a1.robots, a2.robots, 'one parsed robots.txt for both pages');
  assert.equal(a1.sitemap?.urls.length, 51);
  const r1 = runChecks(a1).sitemap_valid!;
  const r2 = runChecks(a2).sitemap_valid!;
  assert.equal(r1.passed, false);
  assert.deepEqual(r2, r1, 'the memoised verdict is the same');
  assert.match(r1.message, /^1 of 51 URLs/);
  // a fresh fetch of the same text is parsed on its own (nothing is keyed by content)
  const third = snapshotFrom('<p>x</p>', { sitemapXml });
  assert.notEqual(buildArtifacts(third).sitemap, a1.sitemap);
});

test('artifacts: blocked pages (status and challenge pages)', () => {
  assert.match(artifactsFrom('<p>x</p>', { status: 403 }).blocked?.reason ?? '', /403/);
  assert.match(
    artifactsFrom('<title>Just a moment...</title><p>Checking your browser</p>').blocked?.reason ?? '',
    /challenge/,
  );
  assert.match(
    artifactsFrom('<p>x</p>', { headers: { 'content-type': 'text/html', 'cf-mitigated': 'challenge' } })
      .blocked?.reason ?? '',
    /Cloudflare/,
  );
  // a long article that mentions recaptcha in a form is not a challenge page
  assert.equal(artifactsFrom(`<p>${'word '.repeat(400)}</p><div class="g-recaptcha"></div>`).blocked, null);
});

test('artifacts: charset from header and meta', () => {
  const a = artifactsFrom('<meta http-equiv="content-type" content="text/html; charset=Shift_JIS">', {
    headers: { 'content-type': 'text/html; charset="UTF-8"' },
  });
  assert.equal(a.charset.header, 'utf-8');
  assert.equal(a.charset.meta, 'shift_jis');
});
