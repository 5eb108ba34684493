// The pg Pool as Kysely reads it (PostgresDialect's `pool`), its clients' queries made through
// pg's callback API in a promise of ours instead of pg's own promise API. Through pg's promise
// (client.query(text, values) with no callback) the rows a query returns survive the young
// generation's collections and are promoted to the old one, where they stay as garbage until a
// full collection: reading 100,000 rows of a crawl in chunks (the crawl diff) left ~80 MB of
// such garbage on the heap, against ~15 MB for the same queries through the callback
// (BENCHMARKS.md, "The crawl diff on PostgreSQL"). Same queries, results and errors.
import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import type { Pool, PoolClient, QueryResult } from 'pg';

/** A client as Kysely uses it; one adapter a pg client (Kysely keys its connections by client). */
function adapt(client: PoolClient): PostgresPoolClient {
  const viaCallback = (text: string, values: readonly unknown[]) =>
    new Promise<QueryResult>((resolve, reject) => {
      client.query(text, [...values], (err: Error | null, res: QueryResult) =>
        err ? reject(err) : resolve(res),
      );
    }).catch((err: unknown) => {
      // as pg's promise does: the stack of the code that made the query, not the socket's read
      if (err instanceof Error) Error.captureStackTrace(err);
      throw err;
    });
  function query<R>(sql: string, parameters: readonly unknown[]): Promise<PostgresQueryResult<R>>;
  function query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  function query(sql: string | object, parameters?: readonly unknown[]): unknown {
    return typeof sql === 'string'
      ? viaCallback(sql, parameters ?? [])
      : // a cursor (Kysely's stream()): pg's own submittable path
        client.query(sql as never);
  }
  return { query, release: () => client.release() };
}

/** `pool` for Kysely's PostgresDialect: its clients adapted (adapt), the pool itself unchanged. */
export function kyselyPool(pool: Pool): PostgresPool {
  const adapted = new WeakMap<PoolClient, PostgresPoolClient>();
  return {
    connect: async () => {
      const client = await pool.connect();
      let a = adapted.get(client);
      if (a === undefined) {
        a = adapt(client);
        adapted.set(client, a);
      }
      return a;
    },
    end: () => pool.end(),
  };
}
