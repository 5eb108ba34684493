// What both engines do the same way with a job kind: find it by name, check a payload against
// its schema, compute the delay before a retry, and tell a permanent failure from one a retry
// may mend.
import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { PermanentJobError, type JobKind, type JobLogger } from './types.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyJobKind = JobKind<TSchema, any>;

export class KindRegistry {
  private readonly byName = new Map<string, AnyJobKind>();
  private readonly validators = new Map<string, ReturnType<typeof Compile>>();

  constructor(kinds: readonly AnyJobKind[]) {
    for (const k of kinds) {
      if (this.byName.has(k.kind)) throw new Error(`job kind ${k.kind} is registered twice`);
      if (!/^[a-z][a-z0-9_-]*(\.[a-z][a-z0-9_-]*)*$/.test(k.kind)) {
        throw new Error(`job kind "${k.kind}": use lower-case words joined by dots, e.g. report.reaudit`);
      }
      if (k.maxAttempts < 1 || k.leaseMs < 100 || k.concurrency < 0) {
        throw new Error(`job kind ${k.kind}: maxAttempts ≥ 1, leaseMs ≥ 100 and concurrency ≥ 0`);
      }
      this.byName.set(k.kind, k);
    }
  }

  get all(): AnyJobKind[] {
    return [...this.byName.values()];
  }

  /** The kind; throws for a name no kind has (a programming error, not a user's). */
  get(kind: string): AnyJobKind {
    const k = this.byName.get(kind);
    if (!k)
      throw new Error(`unknown job kind "${kind}" (known: ${[...this.byName.keys()].join(', ') || 'none'})`);
    return k;
  }

  has(kind: string): boolean {
    return this.byName.has(kind);
  }

  /** null when the payload matches the kind's schema, else what is wrong with it. */
  payloadProblem(kind: AnyJobKind, payload: unknown): string | null {
    let v = this.validators.get(kind.kind);
    if (!v) {
      v = Compile(kind.payload);
      this.validators.set(kind.kind, v);
    }
    if (v.Check(payload)) return null;
    const errors = [...v.Errors(payload)].slice(0, 5);
    return (
      errors.map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ') || 'does not match the schema'
    );
  }
}

/**
 * The payload as enqueued: JSON text, after checking it against the kind's schema (a wrong
 * payload is the caller's bug: thrown at once rather than dying later in the queue).
 */
export function serialisePayload(registry: KindRegistry, kind: AnyJobKind, payload: unknown): string {
  const problem = registry.payloadProblem(kind, payload);
  if (problem !== null) throw new TypeError(`enqueue ${kind.kind}: invalid payload: ${problem}`);
  return JSON.stringify(payload);
}

/**
 * The delay before attempt `failedAttempt + 1`: min(maxMs, baseMs × 2^(n−1)), then jittered by
 * ±20 % so that jobs failing together do not come back together.
 */
export function backoffDelay(
  kind: Pick<AnyJobKind, 'backoff'>,
  failedAttempt: number,
  random = Math.random,
): number {
  const n = Math.max(1, failedAttempt);
  const base = Math.min(kind.backoff.maxMs, kind.backoff.baseMs * 2 ** Math.min(n - 1, 40));
  return Math.max(0, Math.round(base * (0.8 + 0.4 * random())));
}

export function isPermanent(err: unknown): boolean {
  return err instanceof PermanentJobError || (err instanceof Error && err.name === 'PermanentJobError');
}

export function errorText(err: unknown): string {
  const text =
    err instanceof Error ? `${err.name === 'Error' ? '' : `${err.name}: `}${err.message}` : String(err);
  return text.slice(0, 2000);
}

export const silentLog: JobLogger = { debug() {}, info() {}, warn() {}, error() {} };

/** An invalid payload of a stored job (written by an older release, or by hand) can never run. */
export function invalidPayload(kind: string, problem: string): PermanentJobError {
  return new PermanentJobError(`invalid payload for ${kind}: ${problem}`);
}
