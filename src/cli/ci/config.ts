// `pagegrade ci`'s configuration: found (`--config FILE`, else pagegrade.config.json, .yaml or
// .yml in the working folder), parsed (JSON or YAML), validated against the schema
// (schema.ts, compiled with Ajv) and then against the ids Pagegrade knows (checks, categories,
// figures, site findings). Anything wrong is a CliError (exit 2) naming the key path and what
// it allows.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, resolve } from 'node:path';
import { Ajv, type ErrorObject } from 'ajv';
import { parse as parseYaml } from 'yaml';
import { CliError } from '../exit-codes.js';
import { CATEGORY_IDS, FIGURE_IDS, type MatrixEntry, type Rule, type RuleKind } from './assertions.js';
import {
  CiConfigSchema,
  LEVELS,
  type AssertionValue,
  type CiConfigFile,
  type Level,
  type Preset,
  type ReportConfig,
} from './schema.js';

export const CONFIG_FILES = [
  'pagegrade.config.json',
  'pagegrade.config.yaml',
  'pagegrade.config.yml',
] as const;

export interface CiConfig {
  /** the file read */
  file: string;
  /** absolute page URLs or paths on the served or started site */
  urls: string[];
  /** an absolute folder */
  serve: string | null;
  start: { command: string; url: string; timeoutMs: number } | null;
  crawl: { start: string; maxPages?: number; maxDepth?: number } | null;
  render: boolean;
  runs: number;
  preset: Preset | null;
  /** budgets, then assertions over them */
  rules: Map<string, Rule>;
  matrix: MatrixEntry[];
  /** the `upload` key as written (null: none) */
  upload: UploadConfig | null;
  /** where to post the results (pull/merge request): report.ts */
  report: ReportConfig;
}

export interface UploadConfig {
  server?: string;
  token?: string;
  project?: string;
  origin?: string;
  base_branch?: string;
}

/** The ids the config may name, by kind (the runner reads them from the registries). */
export interface KnownIds {
  checks: readonly string[];
  findings: readonly string[];
}

/** Where the config is: the --config file, else the first of CONFIG_FILES in `cwd`. */
export function findConfig(explicit: string | undefined, cwd: string): string {
  if (explicit !== undefined) {
    const file = resolve(cwd, explicit);
    if (!existsSync(file) || !statSync(file).isFile())
      throw new CliError(`--config ${explicit}: no such file.`);
    return file;
  }
  for (const name of CONFIG_FILES) {
    const file = resolve(cwd, name);
    if (existsSync(file)) return file;
  }
  throw new CliError(
    `no configuration: write ${CONFIG_FILES.join(', ')} in ${cwd}, or give --config FILE (docs/ci.md).`,
  );
}

/** The file parsed: YAML for .yaml/.yml, JSON otherwise. */
function parseFile(file: string, label: string): unknown {
  const text = readFileSync(file, 'utf8');
  const ext = extname(file).toLowerCase();
  try {
    return ext === '.yaml' || ext === '.yml' ? parseYaml(text) : JSON.parse(text);
  } catch (err) {
    const what = ext === '.yaml' || ext === '.yml' ? 'YAML' : 'JSON';
    throw new CliError(`${label}: not valid ${what}: ${(err as Error).message.split('\n')[0]}`);
  }
}

let validator: ReturnType<Ajv['compile']> | null = null;
function validate(value: unknown): ErrorObject[] {
  // verbose: each error carries its schema, whose description and enum say what is allowed
  validator ??= new Ajv({ allErrors: true, verbose: true, strict: false }).compile(
    JSON.parse(JSON.stringify(CiConfigSchema)) as object,
  );
  return validator(value) ? [] : (validator.errors ?? []);
}

/** `/assertMatrix/0/assertions/categories.seo` → `assertMatrix[0].assertions.categories.seo` */
function keyPath(instancePath: string, extra?: string): string {
  const parts = instancePath
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (extra !== undefined) parts.push(extra);
  let out = '';
  for (const p of parts) out += /^\d+$/.test(p) ? `[${p}]` : out === '' ? p : `.${p}`;
  return out === '' ? '(the top level)' : out;
}

const quoted = (xs: readonly unknown[]) => xs.map((x) => JSON.stringify(x)).join(', ');

/** Ajv's errors as one line per key: the key path and what it allows. */
function describeErrors(errors: ErrorObject[]): string[] {
  // a choice of forms (anyOf) that failed is said once, at its key, in its own words
  const unions = errors.filter((e) => e.keyword === 'anyOf').map((e) => e.instancePath);
  const kept = errors.filter(
    (e) =>
      e.keyword === 'anyOf' ||
      !unions.some((u) => e.instancePath === u || e.instancePath.startsWith(`${u}/`)),
  );
  const lines: string[] = [];
  for (const e of kept) {
    const schema = e.parentSchema as
      { description?: string; enum?: unknown[]; properties?: object } | undefined;
    let line: string;
    switch (e.keyword) {
      case 'additionalProperties': {
        const key = String((e.params as { additionalProperty: string }).additionalProperty);
        line = `${keyPath(e.instancePath, key)}: unknown key; the keys are: ${Object.keys(schema?.properties ?? {}).join(', ')}`;
        break;
      }
      case 'required':
        line = `${keyPath(e.instancePath, String((e.params as { missingProperty: string }).missingProperty))}: required`;
        break;
      case 'enum':
        line = `${keyPath(e.instancePath)}: must be one of ${quoted(schema?.enum ?? [])}`;
        break;
      case 'anyOf':
        line = `${keyPath(e.instancePath)}: must be ${schema?.description ?? 'one of the allowed forms'}`;
        break;
      default:
        line = `${keyPath(e.instancePath)}: ${e.message ?? 'invalid'}${schema?.description ? ` (${schema.description})` : ''}`;
    }
    if (!lines.includes(line)) lines.push(line);
  }
  return lines;
}

/** The kind of an id, or null when Pagegrade knows no such check, category, figure or finding. */
function kindOf(id: string, known: KnownIds): RuleKind | null {
  if (CATEGORY_IDS.includes(id)) return 'category';
  if (FIGURE_IDS.includes(id)) return 'figure';
  // a rendered report's accessibility checks are axe-core's rules, one check each (axe_<rule>)
  if (known.checks.includes(id) || /^axe_[a-z0-9_]+$/.test(id)) return 'check';
  if (known.findings.includes(id)) return 'finding';
  return null;
}

/** The assertions of one object (`assertions`, or a matrix entry's), checked against the known ids. */
function readRules(
  at: string,
  assertions: Record<string, AssertionValue>,
  known: KnownIds,
  problems: string[],
): Map<string, Rule> {
  const out = new Map<string, Rule>();
  for (const [id, value] of Object.entries(assertions)) {
    const where = `${at}.${id}`;
    const kind = kindOf(id, known);
    if (kind === null) {
      problems.push(
        `${where}: unknown id "${id}": not a check id, \`categories.<${CATEGORY_IDS.map((c) => c.slice(11)).join('|')}>\`, a figure (${FIGURE_IDS.join(', ')}) nor a site finding id (docs/ci.md lists them)`,
      );
      continue;
    }
    const [level, limits] = Array.isArray(value) ? value : [value];
    if (typeof level !== 'string' || !LEVELS.includes(level as Level)) {
      problems.push(`${where}[0]: the first item must be one of ${quoted(LEVELS)}`);
      continue;
    }
    if (limits !== undefined && typeof limits === 'string') {
      problems.push(`${where}[1]: must be {"min": N} and/or {"max": N}`);
      continue;
    }
    const rule: Rule = { kind, level: level as Level, ...(limits ?? {}) };
    const bounded = rule.min !== undefined || rule.max !== undefined;
    if (kind === 'check' && bounded)
      problems.push(`${where}: a check takes a level only ("off", "warn" or "error"), not bounds`);
    else if (kind === 'finding' && rule.min !== undefined)
      problems.push(`${where}: a site finding takes {"max": N} pages at most, not "min"`);
    else if (kind === 'figure' && !bounded && rule.level !== 'off')
      problems.push(`${where}: a figure needs bounds: ["${rule.level}", {"max": N}] (or "min")`);
    else out.set(id, rule);
  }
  return out;
}

/** Reads, validates and resolves the configuration; every problem at once, exit 2. */
export function loadCiConfig(file: string, known: KnownIds, cwd: string): CiConfig {
  const label = file.startsWith(`${cwd}/`) ? file.slice(cwd.length + 1) : file;
  const value = parseFile(file, label);
  const errors = validate(value);
  if (errors.length > 0)
    throw new CliError(
      `${label} is not a valid pagegrade ci configuration:\n  ${describeErrors(errors).join('\n  ')}`,
    );
  const c = value as CiConfigFile;
  const problems: string[] = [];

  const rules = new Map<string, Rule>();
  for (const [id, max] of Object.entries(c.budgets ?? {})) {
    if (!FIGURE_IDS.includes(id))
      problems.push(`budgets.${id}: unknown figure; the figures are: ${FIGURE_IDS.join(', ')}`);
    else rules.set(id, { kind: 'figure', level: 'error', max });
  }
  for (const [id, r] of readRules('assertions', c.assertions ?? {}, known, problems)) rules.set(id, r);
  const matrix = (c.assertMatrix ?? []).map((m, i) => ({
    pattern: m.matchingUrlPattern,
    rules: readRules(`assertMatrix[${i}].assertions`, m.assertions, known, problems),
  }));

  if (c.serve !== undefined && c.start !== undefined)
    problems.push('serve, start: give one of them, not both');
  const local = c.serve !== undefined || c.start !== undefined;
  for (const [i, u] of (c.urls ?? []).entries()) {
    if (local && u.startsWith('/')) continue;
    if (!/^https?:\/\/[^/]/i.test(u))
      problems.push(
        `urls[${i}]: "${u}" is not an absolute http(s) URL${local ? ' nor a path beginning with /' : ' (paths need serve or start)'}`,
      );
  }
  if (c.crawl && !c.crawl.start.startsWith('/') && !/^https?:\/\/[^/]/i.test(c.crawl.start))
    problems.push(
      `crawl.start: "${c.crawl.start}" is not an absolute http(s) URL nor a path beginning with /`,
    );
  if (c.crawl && c.crawl.start.startsWith('/') && !local)
    problems.push('crawl.start: a path needs serve or start');
  if (c.start && !/^https?:\/\/[^/]/i.test(c.start.url))
    problems.push(`start.url: "${c.start.url}" is not an absolute http(s) URL`);
  const serve = c.serve === undefined ? null : resolve(dirname(file), c.serve);
  if (serve !== null && (!existsSync(serve) || !statSync(serve).isDirectory()))
    problems.push(`serve: "${c.serve}" is not a folder (read from the config file's folder)`);
  if (c.urls === undefined && c.crawl === undefined && !local)
    problems.push('(the top level): nothing to audit: give urls, serve, start or crawl');
  if (problems.length > 0)
    throw new CliError(`${label} is not a valid pagegrade ci configuration:\n  ${problems.join('\n  ')}`);

  return {
    file: label,
    urls: c.urls ?? (local && c.crawl === undefined ? ['/'] : []),
    serve,
    start: c.start
      ? { command: c.start.command, url: c.start.url, timeoutMs: c.start.timeout_ms ?? 60_000 }
      : null,
    crawl: c.crawl
      ? {
          start: c.crawl.start,
          ...(c.crawl.max_pages !== undefined ? { maxPages: c.crawl.max_pages } : {}),
          ...(c.crawl.max_depth !== undefined ? { maxDepth: c.crawl.max_depth } : {}),
        }
      : null,
    render: c.render === true,
    runs: c.runs ?? 1,
    preset: c.preset ?? null,
    rules,
    matrix,
    upload: c.upload ?? null,
    report: c.report ?? {},
  };
}
