// The minimal HTML error page for paths outside /api (the report pages' own plugin may render
// richer ones with its own error handler; this is the fallback the root handlers use).
import { escapeHtml as escape } from '../html-escape.js';

export const STATUS_TITLES: Record<number, string> = {
  400: 'Bad request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Page not found',
  405: 'Method not allowed',
  413: 'Request too large',
  415: 'Unsupported media type',
  422: 'Invalid request',
  429: 'Too many requests',
  500: 'Something went wrong',
};

export function htmlErrorPage(status: number, message: string): string {
  const title = STATUS_TITLES[status] ?? 'Error';
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${status} ${escape(title)} · Pagegrade</title></head>
<body style="font-family:system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem">
<h1>${escape(title)}</h1>
<p>${escape(message)}</p>
<p><a href="/">Pagegrade</a></p>
</body>
</html>
`;
}
