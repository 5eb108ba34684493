// Queries compiled once: the API's hot reads (a list's counters, ids and rows, a report by id)
// are built and compiled by Kysely once per dialect and shape, then run with each request's
// values, rather than built and compiled again on every request (docs/api.md, "CPU per
// request"). The SQL stays here in src/store, written with Kysely as everywhere else.
import type { Compilable, CompiledQuery } from 'kysely';
import { dialectOf, type Db } from './database.js';

/** Where a value goes: filled in from the values of each run. */
class Arg {
  constructor(readonly index: number) {}
}

/** The `index`-th value of each run, in a query built for `compiled` (typed as what it stands for). */
export const arg = <T>(index: number): T => new Arg(index) as unknown as T;

/**
 * A query built by `build` for a shape (with `arg(i)` where the values go), compiled on first
 * use per dialect and shape (`keyOf`); each run fills the values into the compiled parameters.
 * Shapes must be few (they are kept for the life of the process).
 */
export function compiled<Row, Shape>(
  keyOf: (shape: Shape) => string,
  build: (db: Db, shape: Shape) => Compilable<Row>,
): (db: Db, shape: Shape, values: readonly unknown[]) => Promise<Row[]> {
  const cache = new Map<string, CompiledQuery<Row>>();
  return async (db, shape, values) => {
    const key = `${dialectOf(db)}:${keyOf(shape)}`;
    let query = cache.get(key);
    if (query === undefined) {
      query = build(db, shape).compile();
      cache.set(key, query);
    }
    const parameters = query.parameters.map((p) => (p instanceof Arg ? values[p.index] : p));
    return (await db.executeQuery<Row>({ ...query, parameters })).rows;
  };
}

/** `compiled` for a query of one shape. */
export function compiledOnce<Row>(
  build: (db: Db) => Compilable<Row>,
): (db: Db, values: readonly unknown[]) => Promise<Row[]> {
  const run = compiled<Row, null>(
    () => '',
    (db) => build(db),
  );
  return (db, values) => run(db, null, values);
}
