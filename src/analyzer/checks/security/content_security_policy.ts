// Content-Security-Policy (header or <meta http-equiv>): present, and restricting scripts.
import type { CheckDefinition } from '../types.js';
import { clip, listDetails } from '../types.js';

interface Policy {
  source: string;
  text: string;
  directives: Map<string, string[]>;
}

export function parsePolicy(text: string, source: string): Policy {
  const directives = new Map<string, string[]>();
  for (const part of text.split(';')) {
    const tokens = part.trim().split(/\s+/).filter(Boolean);
    const name = tokens.shift()?.toLowerCase();
    // the first occurrence of a directive wins
    if (name && !directives.has(name))
      directives.set(
        name,
        tokens.map((x) => x.toLowerCase()),
      );
  }
  return { source, text: text.trim(), directives };
}

/** Why a policy does not stop injected scripts; null when it restricts them. */
export function scriptWeakness(p: Policy): string | null {
  const name = p.directives.has('script-src')
    ? 'script-src'
    : p.directives.has('default-src')
      ? 'default-src'
      : null;
  if (name === null) return 'it has neither script-src nor default-src, so any script may run';
  const list = p.directives.get(name) ?? [];
  const hasNonceOrHash = list.some((s) => s.startsWith("'nonce-") || /^'sha(256|384|512)-/.test(s));
  const strictDynamic = list.includes("'strict-dynamic'");
  if (list.includes("'unsafe-inline'") && !hasNonceOrHash) {
    return `${name} allows 'unsafe-inline' without a nonce or hash, so injected inline scripts run`;
  }
  if (!(strictDynamic && hasNonceOrHash)) {
    const broad = list.filter((s) => s === '*' || s === 'http:' || s === 'https:' || s === 'data:');
    if (broad.length > 0) return `${name} allows scripts from ${broad.join(' ')}, i.e. from almost anywhere`;
  }
  return null;
}

const check: CheckDefinition = {
  id: 'content_security_policy',
  category: 'security',
  priority: 'medium',
  title: 'A Content-Security-Policy restricts scripts',
  failTitle: 'No Content-Security-Policy restricts scripts',
  howToFix:
    "Send a Content-Security-Policy header that limits scripts, ideally with nonces or hashes: e.g. \"script-src 'nonce-{random}' 'strict-dynamic'; object-src 'none'; base-uri 'none'\". Avoid 'unsafe-inline' unless a nonce or hash is also listed.",
  failsWhen:
    "no enforced CSP (header or `<meta http-equiv>`; report-only does not count), or no policy restricts scripts: no script-src/default-src, `'unsafe-inline'` without a nonce/hash, or `*`/`http:`/`https:`/`data:` sources without `'strict-dynamic'` + nonce/hash",
  needsContent: true,
  run(a) {
    const policies: Policy[] = [];
    const header = a.headers['content-security-policy'];
    if (header !== undefined) {
      // several headers are joined with ", "; each is enforced on its own
      for (const p of header.split(',')) if (p.trim()) policies.push(parsePolicy(p, 'header'));
    }
    for (const m of a.metas) {
      if (m.inHead && m.httpEquiv === 'content-security-policy' && m.content && m.content.trim()) {
        policies.push(parsePolicy(m.content, '<meta http-equiv>'));
      }
    }
    if (policies.length === 0) {
      const reportOnly = a.headers['content-security-policy-report-only'];
      return {
        passed: false,
        message:
          reportOnly !== undefined
            ? 'The page has only a Content-Security-Policy-Report-Only header: violations are reported but nothing is blocked.'
            : 'The page has no Content-Security-Policy (header or <meta http-equiv>): nothing limits where scripts come from if markup is injected.',
        value: null,
      };
    }
    const weaknesses = policies.map((p) => scriptWeakness(p));
    const strong = policies.find((_, i) => weaknesses[i] === null);
    const items = policies.map(
      (p, i) => `${p.source}: ${clip(p.text, 200)}${weaknesses[i] ? ` — ${weaknesses[i]}` : ''}`,
    );
    const details = listDetails(items);
    if (strong === undefined) {
      return {
        passed: false,
        message: `The Content-Security-Policy does not stop injected scripts: ${weaknesses[0]}.`,
        value: clip(policies[0]!.text, 200),
        details,
      };
    }
    const notes: string[] = [];
    const scriptList = strong.directives.get('script-src') ?? strong.directives.get('default-src') ?? [];
    if (scriptList.includes("'unsafe-eval'")) notes.push("it allows 'unsafe-eval'");
    if (!strong.directives.has('object-src') && !strong.directives.has('default-src'))
      notes.push('object-src is not restricted');
    const noteText = notes.length ? ` Note: ${notes.join('; ')}.` : '';
    return {
      passed: true,
      message: `A Content-Security-Policy (${strong.source}) restricts scripts.${noteText}`,
      value: clip(strong.text, 200),
      details,
    };
  },
};

export default check;
