// A tiny HTML templating kit: the `html` tagged template escapes every interpolated value
// unless it is already SafeHtml (another `html` result or `raw()`). Arrays are joined, null,
// undefined and false render nothing. Everything that came from an audited page goes through
// here, so escaping is the default and opting out is explicit and rare.

import { escapeHtml } from '../html-escape.js';

export { escapeHtml };

export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

/** Marks a string as already safe HTML. Only for markup this code wrote itself. */
export function raw(markup: string): SafeHtml {
  return new SafeHtml(markup);
}

export type Renderable = SafeHtml | string | number | boolean | null | undefined | readonly Renderable[];

function render(value: Renderable): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map((v: Renderable) => render(v)).join('');
  return escapeHtml(String(value));
}

/** The tagged template: `html\`<p>${text}</p>\`` escapes `text`. */
export function html(strings: TemplateStringsArray, ...values: Renderable[]): SafeHtml {
  let out = strings[0] ?? '';
  for (let i = 0; i < values.length; i++) {
    out += render(values[i]) + (strings[i + 1] ?? '');
  }
  return new SafeHtml(out);
}

/** Joins renderables into one SafeHtml (escaping plain strings). */
export function join(parts: readonly Renderable[], separator: SafeHtml | string = ''): SafeHtml {
  return new SafeHtml(parts.map((p) => render(p)).join(render(separator)));
}
