import { clip, tableDetails, type CheckDefinition } from '../types.js';

const check: CheckDefinition = {
  id: 'mixed_content',
  category: 'security',
  priority: 'medium',
  title: 'All subresources are loaded over HTTPS',
  failTitle: 'Some subresources are loaded over plain HTTP',
  howToFix:
    'Load every script, stylesheet, image, frame and media file over https:// (or a relative URL); browsers block or warn about http:// subresources on HTTPS pages.',
  failsWhen:
    'an https page loads a script, stylesheet, image, frame, media file, font or icon over `http:`. Not applicable on http pages',
  needsContent: true,
  run(a) {
    if (a.finalUrlParsed.protocol !== 'https:') return 'not_applicable';
    const insecure = a.subresources.filter((r) => r.url.startsWith('http:'));
    if (insecure.length === 0)
      return { passed: true, message: 'Every subresource is loaded over HTTPS.', value: 0 };
    return {
      passed: false,
      message: `${insecure.length} subresource${insecure.length === 1 ? ' is' : 's are'} loaded over plain HTTP.`,
      value: insecure.length,
      details: tableDetails(
        ['url', 'from'],
        insecure.map((r) => [clip(r.url, 200), r.from]),
      ),
    };
  },
};

export default check;
