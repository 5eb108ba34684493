// Every <script type="application/ld+json"> block parses as JSON and describes something:
// an object (or array of objects) with @context and @type (or an @graph of typed nodes).
import type { CheckDefinition } from '../types.js';
import { clip, tableDetails } from '../types.js';

/** CMSs wrap JSON-LD in HTML comments or CDATA markers; browsers and search engines ignore those. */
function unwrap(raw: string): string {
  let s = raw.trim();
  s = s.replace(/^(?:\/\/\s*)?<!--/, '').replace(/(?:\/\/\s*)?-->$/, '');
  s = s
    .replace(/^(?:\/\*\s*)?(?:\/\/\s*)?<!\[CDATA\[(?:\s*\*\/)?/, '')
    .replace(/(?:\/\*\s*)?(?:\/\/\s*)?\]\]>(?:\s*\*\/)?$/, '');
  return s.trim();
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function typesOf(node: Record<string, unknown>): string[] {
  const t = node['@type'];
  if (typeof t === 'string') return [t];
  if (Array.isArray(t)) return t.filter((x): x is string => typeof x === 'string');
  return [];
}

/** Problems of one parsed block, and the types it declares. */
export function inspectJsonLd(value: unknown): { problems: string[]; types: string[] } {
  const problems: string[] = [];
  const types: string[] = [];
  const items = Array.isArray(value) ? value : [value];
  if (items.length === 0) problems.push('an empty array');
  items.forEach((item, i) => {
    const where = Array.isArray(value) ? `item ${i + 1}: ` : '';
    if (!isObject(item)) {
      problems.push(`${where}not an object`);
      return;
    }
    if (item['@context'] === undefined) problems.push(`${where}no @context`);
    const graph = item['@graph'];
    if (graph !== undefined) {
      if (!Array.isArray(graph)) {
        problems.push(`${where}@graph is not an array`);
        return;
      }
      let untyped = 0;
      for (const node of graph) {
        if (!isObject(node)) untyped++;
        else {
          const t = typesOf(node);
          if (t.length === 0) untyped++;
          types.push(...t);
        }
      }
      if (untyped > 0)
        problems.push(`${where}${untyped} @graph node${untyped === 1 ? '' : 's'} without @type`);
      return;
    }
    const t = typesOf(item);
    if (t.length === 0) problems.push(`${where}no @type`);
    types.push(...t);
  });
  return { problems, types };
}

const check: CheckDefinition = {
  id: 'json_ld_valid',
  category: 'miscellaneous',
  priority: 'medium',
  title: 'Structured data (JSON-LD) is valid',
  failTitle: 'Structured data (JSON-LD) is invalid',
  howToFix:
    'Make each <script type="application/ld+json"> hold valid JSON (no trailing commas, comments or unescaped quotes) with "@context": "https://schema.org" and an "@type" (or an "@graph" of typed items); check it with a structured-data validator.',
  failsWhen:
    'a JSON-LD block is empty or not JSON, or an item lacks `@context`, or lacks `@type` (or an `@graph` node lacks `@type`). Not applicable without JSON-LD',
  needsContent: true,
  run(a) {
    if (a.jsonLd.length === 0) return 'not_applicable';
    const rows: (string | number)[][] = [];
    const allTypes: string[] = [];
    let bad = 0;
    a.jsonLd.forEach((raw, i) => {
      const text = unwrap(raw);
      if (text === '') {
        bad++;
        rows.push([i + 1, '', 'empty block']);
        return;
      }
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (err) {
        bad++;
        rows.push([
          i + 1,
          '',
          `invalid JSON: ${clip(err instanceof Error ? err.message : String(err), 120)}`,
        ]);
        return;
      }
      const { problems, types } = inspectJsonLd(value);
      allTypes.push(...types);
      if (problems.length) bad++;
      rows.push([i + 1, clip(types.join(', '), 80), problems.length ? problems.join('; ') : 'ok']);
    });
    const n = a.jsonLd.length;
    const details = tableDetails(['block', 'types', 'result'], rows);
    const typeList = [...new Set(allTypes)];
    if (bad > 0) {
      const first = rows.find((r) => r[2] !== 'ok');
      return {
        passed: false,
        message: `${bad} of ${n} JSON-LD block${n === 1 ? ' is' : 's are'} invalid (block ${first?.[0]}: ${first?.[2]}); search engines ignore invalid blocks.`,
        value: bad,
        details,
      };
    }
    return {
      passed: true,
      message: `${n} JSON-LD block${n === 1 ? '' : 's'} parse and declare types (${clip(typeList.join(', '), 120) || 'none'}).`,
      value: 0,
      details,
    };
  },
};

export default check;
