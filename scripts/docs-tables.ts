// The generated parts of the docs: the check table and the scoring tables of docs/checks.md,
// written from the registry (src/analyzer/checks/index.ts) and the scoring table
// (src/analyzer/scoring.ts). `npm run docs` (scripts/docs.ts) rewrites them; test/docs.test.ts
// fails when the committed docs differ. Output depends only on the code (no dates, registry
// order), so two runs give the same bytes.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checks } from '../src/analyzer/checks/index.js';
import type { CheckDefinition } from '../src/analyzer/checks/types.js';
import { SCORING } from '../src/analyzer/scoring.js';
import { CATEGORIES, PRIORITIES, RESULTS } from '../src/analyzer/types.js';
import { CATEGORY_NAMES } from '../src/analyzer/vocabulary.js';
import { ACCESS, type AccessRule } from '../src/services/access/table.js';
import { ROLES, type Role } from '../src/services/accounts/types.js';
import { FIGURES } from '../src/cli/ci/assertions.js';
import { configJsonSchema } from '../src/cli/ci/schema.js';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** A Markdown table cell: one line, pipes escaped. */
function cell(s: string): string {
  return s.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|');
}

function thresholdsOf(c: CheckDefinition): string {
  const entries = Object.entries(c.thresholds ?? {});
  if (entries.length === 0) return '–';
  return entries
    .map(([name, t]) => `\`${name}\` = ${t.default} (${t.description.replace(/</g, '&lt;')})`)
    .join('<br>');
}

function checkTable(): string {
  const out: string[] = [];
  for (const category of CATEGORIES) {
    const inCategory = checks.filter((c) => c.category === category);
    if (inCategory.length === 0) {
      // accessibility: its checks are axe-core's rules, made per audit (docs/rendering.md)
      out.push(
        `### ${CATEGORY_NAMES[category]}`,
        '',
        'No registered checks: rendered audits make one check per axe-core rule (`axe_<rule>`), see [Accessibility](rendering.md#accessibility).',
        '',
      );
      continue;
    }
    out.push(`### ${CATEGORY_NAMES[category]} (${inCategory.length})`, '');
    out.push('| id | priority | fails when | thresholds (default) | content |');
    out.push('|---|---|---|---|---|');
    for (const c of inCategory) {
      out.push(
        `| \`${c.id}\` | ${c.priority} | ${cell(c.failsWhen)} | ${cell(thresholdsOf(c))} | ${c.needsContent ? 'yes' : 'no'} |`,
      );
    }
    out.push('');
  }
  return [`${checks.length} checks, in the order reports list them.`, '', ...out].join('\n').trimEnd();
}

function scoringTables(): string {
  const weights = PRIORITIES.map((p) => `| ${p} | ${SCORING.weights[p]} |`);
  const bands = RESULTS.map((band) => {
    const min = (SCORING.bands as Record<string, number>)[band];
    return `| ${band} | ${min === undefined ? `< ${SCORING.bands.decent}` : `≥ ${min}`} |`;
  });
  return [
    '| priority | weight |',
    '|---|--:|',
    ...weights,
    '',
    '| result | score |',
    '|---|---|',
    ...bands,
  ].join('\n');
}

/** The layer map of scripts/layers.cjs as a table, top floor first. */
function layersTable(): string {
  const { LAYERS } = createRequire(import.meta.url)('./layers.cjs') as {
    LAYERS: { floor: number; room: string; paths: string[]; holds: string }[];
  };
  const rows = [...LAYERS].sort((a, b) => b.floor - a.floor);
  return [
    '| floor | room | files | holds |',
    '|---:|---|---|---|',
    ...rows.map(
      (l) => `| ${l.floor} | ${l.room} | ${l.paths.map((p) => `\`${p}\``).join(', ')} | ${cell(l.holds)} |`,
    ),
  ].join('\n');
}

/** docs/teams.md's roles table: the access table (src/services/access/table.ts), one row an operation. */
function accessTable(): string {
  const mark = (op: AccessRule, role: Role) =>
    ROLES.indexOf(role) < ROLES.indexOf(op.role) ? '–' : op.instanceAdmin ? 'instance admin' : 'yes';
  const out = [
    `| operation | what | key scope | ${ROLES.join(' | ')} |`,
    `|---|---|---|${ROLES.map(() => '---').join('|')}|`,
  ];
  for (const [name, rule] of Object.entries(ACCESS) as [string, AccessRule][])
    out.push(
      `| \`${name}\` | ${cell(rule.what)} | ${rule.scope} | ${ROLES.map((r) => mark(rule, r)).join(' | ')} |`,
    );
  return out.join('\n');
}

interface JsonSchemaNode {
  type?: string;
  description?: string;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  properties?: Record<string, JsonSchemaNode>;
  required?: string[];
  items?: JsonSchemaNode;
  patternProperties?: Record<string, JsonSchemaNode>;
  anyOf?: JsonSchemaNode[];
}

function typeOf(n: JsonSchemaNode): string {
  if (n.enum) return n.enum.map((v) => `\`${JSON.stringify(v)}\``).join(', ');
  if (n.anyOf) return 'level or [level, {min, max}]';
  if (n.type === 'array')
    return n.items?.type === 'object' ? 'array of objects' : `array of ${n.items?.type ?? 'values'}s`;
  if (n.type === 'object' && n.patternProperties) {
    const v = Object.values(n.patternProperties)[0]!;
    return `object: id → ${v.anyOf ? 'assertion' : (v.type ?? 'value')}`;
  }
  const range =
    n.minimum !== undefined && n.maximum !== undefined
      ? ` ${n.minimum}–${n.maximum}`
      : n.minimum !== undefined
        ? ` ≥ ${n.minimum}`
        : '';
  return `${n.type ?? 'any'}${range}`;
}

/** docs/ci.md's configuration reference: every key of the JSON Schema (nested keys dotted). */
function ciConfigTable(): string {
  const out = ['| key | type | what |', '|---|---|---|'];
  const walk = (props: Record<string, JsonSchemaNode>, prefix: string, required: string[]) => {
    for (const [key, node] of Object.entries(props)) {
      const name = `${prefix}${key}`;
      const req = required.includes(key) ? ' (required)' : '';
      out.push(`| \`${name}\` | ${cell(typeOf(node))}${req} | ${cell(node.description ?? '')} |`);
      if (node.type === 'object' && node.properties) walk(node.properties, `${name}.`, node.required ?? []);
      if (node.type === 'array' && node.items?.properties)
        walk(node.items.properties, `${name}[].`, node.items.required ?? []);
    }
  };
  const root = configJsonSchema() as JsonSchemaNode;
  walk(root.properties ?? {}, '', root.required ?? []);
  return out.join('\n');
}

/** docs/ci.md's figures: what a budget or a figure assertion may name. */
function ciFiguresTable(): string {
  return [
    '| figure | unit | what | measured |',
    '|---|---|---|---|',
    ...FIGURES.map(
      (f) =>
        `| \`${f.id}\` | ${f.unit} | ${cell(f.what)} | ${f.rendered ? 'rendered runs (`render: true`)' : 'every run'} |`,
    ),
  ].join('\n');
}

/** Generated sections by name: `<!-- generated:NAME -->` … `<!-- /generated:NAME -->` in a doc. */
const SECTIONS: Record<string, () => string> = {
  checks: checkTable,
  scoring: scoringTables,
  layers: layersTable,
  access: accessTable,
  'ci-config': ciConfigTable,
  'ci-figures': ciFiguresTable,
};

/** The docs files that carry generated sections. */
export const GENERATED_DOCS = ['docs/checks.md', 'docs/teams.md'] as const;

const NOTE = '<!-- Generated by `npm run docs` from the code: edit the code, not this section. -->';

/** The file's text with every generated section rewritten. Throws on an unknown or unclosed marker. */
export function regenerate(text: string, file: string): string {
  return text.replace(
    /<!-- generated:([a-z-]+) -->\n[\s\S]*?<!-- \/generated:([a-z-]+) -->/g,
    (_whole, open: string, close: string) => {
      if (open !== close) throw new Error(`${file}: section "${open}" is closed as "${close}"`);
      const render = SECTIONS[open];
      if (!render) throw new Error(`${file}: unknown generated section "${open}"`);
      return `<!-- generated:${open} -->\n${NOTE}\n\n${render()}\n\n<!-- /generated:${open} -->`;
    },
  );
}

/** Every generated doc: its committed text and what `npm run docs` would write. */
export function docsState(): { file: string; committed: string; generated: string }[] {
  return GENERATED_DOCS.map((file) => {
    const committed = readFileSync(join(ROOT, file), 'utf8');
    return { file, committed, generated: regenerate(committed, file) };
  });
}

/** docs/architecture.md's layer map: its committed text and what `npm run docs` would write. */
export function layersState(): { file: string; committed: string; generated: string } {
  const file = 'docs/architecture.md';
  const committed = readFileSync(join(ROOT, file), 'utf8');
  return { file, committed, generated: regenerate(committed, file) };
}

/** docs/ci.md (its generated sections) and docs/ci.schema.json: committed and generated. */
export function ciDocsState(): { file: string; committed: string; generated: string }[] {
  const read = (file: string) => {
    try {
      return readFileSync(join(ROOT, file), 'utf8');
    } catch {
      return '';
    }
  };
  const md = read('docs/ci.md');
  return [
    { file: 'docs/ci.md', committed: md, generated: regenerate(md, 'docs/ci.md') },
    {
      file: 'docs/ci.schema.json',
      committed: read('docs/ci.schema.json'),
      generated: `${JSON.stringify(configJsonSchema(), null, 2)}\n`,
    },
  ];
}
