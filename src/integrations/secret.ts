// A token kept out of every log: JSON (pino, JSON.stringify) and util.inspect (console.log)
// print `[redacted]`; only reveal() gives the value, to put in a request's header.
import { inspect } from 'node:util';

export class Secret {
  readonly #value: string;

  constructor(value: string) {
    this.#value = value;
  }

  reveal(): string {
    return this.#value;
  }

  toJSON(): string {
    return '[redacted]';
  }

  toString(): string {
    return '[redacted]';
  }

  [inspect.custom](): string {
    return '[redacted]';
  }

  /** `text` with every occurrence of the token (as is and URL-encoded) replaced by `[redacted]`. */
  scrub(text: string): string {
    const v = this.#value;
    if (v.length === 0) return text;
    let out = text.split(v).join('[redacted]');
    const encoded = encodeURIComponent(v);
    if (encoded !== v) out = out.split(encoded).join('[redacted]');
    return out;
  }
}
