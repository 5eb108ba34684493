// The embedded job engine's SQL (the `jobs` table), and the BullMQ engine's outbox
// (`job_outbox`). The rules — leases, retries, backoff — live in src/jobs/worker.ts; this file
// only states them in SQL. Times are epoch milliseconds. docs/jobs.md describes the states.
//
// Claims are safe with several processes on one database: on PostgreSQL the claim is one
// UPDATE over `SELECT … FOR UPDATE SKIP LOCKED` (two workers never take the same row, and
// never wait for each other); on SQLite it is one BEGIN IMMEDIATE transaction, which holds the
// database's write lock (another process waits for it, busy_timeout, then sees the claim).
import { sql } from 'kysely';
import { arg, compiled, compiledOnce } from './compiled.js';
import { dialectOf, withTransaction, type Db } from './database.js';
import { toNumber } from './sql-helpers.js';

export interface JobRow {
  id: string;
  kind: string;
  key: string | null;
  /** JSON text */
  payload: string;
  /** attempts started, this one included */
  attempts: number;
  maxAttempts: number;
  runAt: number;
  lease: string | null;
}

export interface NewJob {
  kind: string;
  key: string | null;
  /** JSON text */
  payload: string;
  maxAttempts: number;
  runAt: number;
  now: number;
}

/** Postgres/SQLite unique-violation codes */
function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/**
 * Inserts a job; with a key, unless a live (waiting, delayed or running) job of the kind has
 * it, in which case that job's id is answered with `added: false`.
 */
export async function insertJob(db: Db, job: NewJob): Promise<{ id: string; added: boolean }> {
  for (let attempt = 0; ; attempt++) {
    const [row] = await insertJobQuery(db, [
      job.kind,
      job.key,
      job.payload,
      job.maxAttempts,
      job.runAt,
      job.now,
    ]);
    if (row) return { id: String(row.id), added: true };
    const live = await db
      .selectFrom('jobs')
      .select('id')
      .where('kind', '=', job.kind)
      .where('key', '=', job.key)
      .where('state', '<>', 'dead')
      .executeTakeFirst();
    if (live) return { id: String(live.id), added: false };
    // the holder finished between the two statements: insert again
    if (attempt >= 5) throw new Error(`enqueue ${job.kind}: the key ${job.key} kept conflicting`);
  }
}

/** the job insert, compiled once (a crawl makes one a page) */
const insertJobQuery = compiledOnce((db) =>
  db
    .insertInto('jobs')
    .values({
      kind: arg<string>(0),
      key: arg<string | null>(1),
      payload: arg<string>(2),
      state: 'waiting',
      max_attempts: arg<number>(3),
      run_at: arg<number>(4),
      created_at: arg<number>(5),
    })
    // the only unique constraint that can conflict is (kind, key) of live jobs
    .onConflict((oc) => oc.doNothing())
    .returning('id'),
);

export interface ClaimOptions {
  kind: string;
  limit: number;
  /** the token of this claim, written to each claimed row */
  lease: string;
  now: number;
  leaseMs: number;
}

/** Takes up to `limit` due waiting jobs of a kind: running, under `lease`, one more attempt. */
export async function claimJobs(db: Db, o: ClaimOptions): Promise<JobRow[]> {
  const claim = async (trx: Db) => {
    const rows = await claimQuery(trx, [o.lease, o.now + o.leaseMs, o.kind, o.now, o.limit]);
    return rows
      .map((r) => ({
        id: String(r.id),
        kind: r.kind,
        key: r.key,
        payload: r.payload,
        attempts: toNumber(r.attempts),
        maxAttempts: toNumber(r.max_attempts),
        runAt: toNumber(r.run_at),
        lease: r.lease,
      }))
      .sort((a, b) => a.runAt - b.runAt || Number(a.id) - Number(b.id));
  };
  // PostgreSQL: one statement is one transaction; SQLite: BEGIN IMMEDIATE around it
  return dialectOf(db) === 'postgres' ? claim(db) : withTransaction(db, claim);
}

/** the claim's statement, compiled once per dialect (a crawl claims a job a page) */
const claimQuery = compiledOnce((db) => {
  let due = db
    .selectFrom('jobs')
    .select('id')
    .where('kind', '=', arg<string>(2))
    .where('state', '=', 'waiting')
    .where('run_at', '<=', arg<number>(3))
    .orderBy('run_at')
    .orderBy('id')
    .limit(arg<number>(4));
  if (dialectOf(db) === 'postgres') due = due.forUpdate().skipLocked();
  return db
    .updateTable('jobs')
    .set((eb) => ({
      state: 'running',
      attempts: eb('attempts', '+', 1),
      lease: arg<string>(0),
      locked_until: arg<number>(1),
    }))
    .where('id', 'in', due)
    .returning(['id', 'kind', 'key', 'payload', 'attempts', 'max_attempts', 'run_at', 'lease']);
});

/**
 * Extends the leases still held. Answers, for each job still held under one of `leases`, its
 * id and lease: a running job of the caller's that is missing was lost (its lease expired and
 * another worker took it).
 */
export async function renewLeases(
  db: Db,
  leases: readonly string[],
  until: number,
): Promise<Map<string, string>> {
  if (leases.length === 0) return new Map();
  const rows = await db
    .updateTable('jobs')
    .set({ locked_until: until })
    .where('state', '=', 'running')
    .where('lease', 'in', leases)
    .returning(['id', 'lease'])
    .execute();
  return new Map(rows.map((r) => [String(r.id), r.lease!]));
}

const renewOneQuery = compiledOnce((db) =>
  db
    .updateTable('jobs')
    .set({ locked_until: arg<number>(0) })
    .where('id', '=', arg<number>(1))
    .where('state', '=', 'running')
    .where('lease', '=', arg<string>(2))
    .returning('id'),
);

/**
 * One job's lease renewed until `until`, only while `lease` still holds it — a job's fence, in
 * the transaction that writes its outcome (compiled once: it runs for every crawled page).
 * Answers whether it was held.
 */
export async function renewLease(db: Db, id: string, lease: string, until: number): Promise<boolean> {
  return (await renewOneQuery(db, [until, Number(id), lease])).length === 1;
}

/**
 * Finished jobs are deleted, several in one statement (one commit for a batch). Answers the
 * ids deleted: a job missing from it had lost its lease (another worker holds it).
 */
export async function completeJobs(
  db: Db,
  jobs: readonly { id: string; lease: string }[],
): Promise<Set<string>> {
  if (jobs.length === 0) return new Set();
  const rows =
    jobs.length <= COMPLETE_COMPILED
      ? await completeQuery(
          db,
          jobs.length,
          jobs.flatMap((j) => [j.id, j.lease]),
        )
      : await db
          .deleteFrom('jobs')
          .where('state', '=', 'running')
          .where((eb) => eb.or(jobs.map((j) => eb.and([eb('id', '=', j.id), eb('lease', '=', j.lease)]))))
          .returning('id')
          .execute();
  return new Set(rows.map((r) => String(r.id)));
}

/** job counts whose delete is kept compiled (a worker completes a few at once) */
const COMPLETE_COMPILED = 16;
const completeQuery = compiled(
  (count: number) => String(count),
  (db, count) =>
    db
      .deleteFrom('jobs')
      .where('state', '=', 'running')
      .where((eb) =>
        eb.or(
          Array.from({ length: count }, (_, i) =>
            eb.and([eb('id', '=', arg<string>(2 * i)), eb('lease', '=', arg<string>(2 * i + 1))]),
          ),
        ),
      )
      .returning('id'),
);

/** Back to waiting until `runAt`, with the attempt's error. False when the lease was lost. */
export async function retryJobLater(
  db: Db,
  id: string,
  lease: string,
  runAt: number,
  error: string,
): Promise<boolean> {
  const res = await db
    .updateTable('jobs')
    .set({ state: 'waiting', run_at: runAt, lease: null, locked_until: null, last_error: error })
    .where('id', '=', id)
    .where('lease', '=', lease)
    .where('state', '=', 'running')
    .executeTakeFirst();
  return res.numUpdatedRows > 0n;
}

/** Dead, with the last error, kept for inspection. False when the lease was lost. */
export async function buryJob(
  db: Db,
  id: string,
  lease: string,
  error: string,
  now: number,
): Promise<boolean> {
  const res = await db
    .updateTable('jobs')
    .set({ state: 'dead', lease: null, locked_until: null, last_error: error, finished_at: now })
    .where('id', '=', id)
    .where('lease', '=', lease)
    .where('state', '=', 'running')
    .executeTakeFirst();
  return res.numUpdatedRows > 0n;
}

/**
 * Gives a job back without counting the attempt (a worker stopping: the handler was aborted
 * and settled); it is due at once. False when the lease was lost.
 */
export async function releaseJob(db: Db, id: string, lease: string, now: number): Promise<boolean> {
  const res = await db
    .updateTable('jobs')
    .set((eb) => ({
      state: 'waiting',
      run_at: now,
      lease: null,
      locked_until: null,
      attempts: sql<number>`CASE WHEN ${eb.ref('attempts')} > 0 THEN ${eb.ref('attempts')} - 1 ELSE 0 END`,
    }))
    .where('id', '=', id)
    .where('lease', '=', lease)
    .where('state', '=', 'running')
    .executeTakeFirst();
  return res.numUpdatedRows > 0n;
}

export const LEASE_EXPIRED = 'lease expired: the worker stopped renewing it (crash, kill or stall)';

/**
 * Jobs whose lease expired (their worker died or stalled): back to waiting, due at once — or
 * dead when that was their last attempt. Returns how many were taken back and buried.
 */
export async function reapExpiredLeases(db: Db, now: number): Promise<{ retried: number; buried: number }> {
  const buried = await db
    .updateTable('jobs')
    .set({ state: 'dead', lease: null, locked_until: null, last_error: LEASE_EXPIRED, finished_at: now })
    .where('state', '=', 'running')
    .where('locked_until', '<', now)
    .where((eb) => eb('attempts', '>=', eb.ref('max_attempts')))
    .executeTakeFirst();
  const retried = await db
    .updateTable('jobs')
    .set({ state: 'waiting', run_at: now, lease: null, locked_until: null, last_error: LEASE_EXPIRED })
    .where('state', '=', 'running')
    .where('locked_until', '<', now)
    .executeTakeFirst();
  return { retried: Number(retried.numUpdatedRows), buried: Number(buried.numUpdatedRows) };
}

/** Deletes dead jobs that died before `before`. */
export async function purgeDeadJobs(db: Db, before: number): Promise<number> {
  const res = await db
    .deleteFrom('jobs')
    .where('state', '=', 'dead')
    .where('finished_at', '<', before)
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}

export interface JobCountRow {
  kind: string;
  waiting: number;
  active: number;
  delayed: number;
  dead: number;
}

export async function countJobs(db: Db, now: number): Promise<JobCountRow[]> {
  const rows = await db
    .selectFrom('jobs')
    .select((eb) => [
      'kind',
      'state',
      sql<number>`CASE WHEN ${eb.ref('run_at')} > ${now} THEN 1 ELSE 0 END`.as('later'),
      eb.fn.countAll().as('n'),
    ])
    .groupBy([sql`1`, sql`2`, sql`3`])
    .execute();
  const byKind = new Map<string, JobCountRow>();
  for (const r of rows) {
    const c = byKind.get(r.kind) ?? { kind: r.kind, waiting: 0, active: 0, delayed: 0, dead: 0 };
    const n = toNumber(r.n);
    if (r.state === 'running') c.active += n;
    else if (r.state === 'dead') c.dead += n;
    else if (toNumber(r.later) === 1) c.delayed += n;
    else c.waiting += n;
    byKind.set(r.kind, c);
  }
  return [...byKind.values()];
}

export interface DeadJobRow {
  id: string;
  kind: string;
  payload: string;
  attempts: number;
  lastError: string | null;
  finishedAt: number | null;
}

export async function listDeadJobs(db: Db, o: { kind?: string; limit: number }): Promise<DeadJobRow[]> {
  let q = db
    .selectFrom('jobs')
    .select(['id', 'kind', 'payload', 'attempts', 'last_error', 'finished_at'])
    .where('state', '=', 'dead');
  if (o.kind !== undefined) q = q.where('kind', '=', o.kind);
  const rows = await q.orderBy('id', 'desc').limit(o.limit).execute();
  return rows.map((r) => ({
    id: String(r.id),
    kind: r.kind,
    payload: r.payload,
    attempts: toNumber(r.attempts),
    lastError: r.last_error,
    finishedAt: r.finished_at === null ? null : toNumber(r.finished_at),
  }));
}

/**
 * Dead jobs back to waiting with a fresh set of attempts, due at once. A dead job whose key a
 * live job now holds is a duplicate of it: it is deleted instead. Returns how many were revived.
 */
export async function reviveDeadJobs(
  db: Db,
  o: { ids: readonly string[] | 'all'; kind?: string; now: number },
): Promise<number> {
  let q = db.selectFrom('jobs').select('id').where('state', '=', 'dead');
  if (o.kind !== undefined) q = q.where('kind', '=', o.kind);
  if (o.ids !== 'all') {
    const ids = o.ids.filter((id) => /^[0-9]{1,18}$/.test(id));
    if (ids.length === 0) return 0;
    q = q.where('id', 'in', ids);
  }
  const dead = await q.orderBy('id').execute();
  let revived = 0;
  for (const { id } of dead) {
    try {
      const res = await db
        .updateTable('jobs')
        .set({ state: 'waiting', attempts: 0, run_at: o.now, finished_at: null })
        .where('id', '=', id)
        .where('state', '=', 'dead')
        .executeTakeFirst();
      revived += Number(res.numUpdatedRows);
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      await db.deleteFrom('jobs').where('id', '=', id).where('state', '=', 'dead').execute();
    }
  }
  return revived;
}

// ---------------------------------------------------------------------------------------
// The BullMQ engine's outbox

export interface OutboxRow {
  id: string;
  jobId: string;
  kind: string;
  key: string | null;
  payload: string;
  maxAttempts: number | null;
  runAt: number;
}

export async function insertOutbox(db: Db, row: Omit<OutboxRow, 'id'> & { now: number }): Promise<void> {
  await db
    .insertInto('job_outbox')
    .values({
      job_id: row.jobId,
      kind: row.kind,
      key: row.key,
      payload: row.payload,
      max_attempts: row.maxAttempts,
      run_at: row.runAt,
      created_at: row.now,
    })
    .execute();
}

/** Whether the outbox holds anything (a cheap check before taking a lock). */
export async function outboxPending(db: Db): Promise<boolean> {
  return (await db.selectFrom('job_outbox').select('id').limit(1).executeTakeFirst()) !== undefined;
}

/**
 * Relays a batch of the outbox in one transaction: `send` gets the oldest rows (locked on
 * PostgreSQL, skipping rows another process is relaying); they are deleted when it succeeds
 * and stay when it throws. Returns how many were relayed.
 */
export async function relayOutbox(
  db: Db,
  limit: number,
  send: (rows: OutboxRow[]) => Promise<void>,
): Promise<number> {
  return withTransaction(db, async (trx) => {
    let q = trx
      .selectFrom('job_outbox')
      .select(['id', 'job_id', 'kind', 'key', 'payload', 'max_attempts', 'run_at'])
      .orderBy('id')
      .limit(limit);
    if (dialectOf(trx) === 'postgres') q = q.forUpdate().skipLocked();
    const rows = (await q.execute()).map((r) => ({
      id: String(r.id),
      jobId: r.job_id,
      kind: r.kind,
      key: r.key,
      payload: r.payload,
      maxAttempts: r.max_attempts === null ? null : toNumber(r.max_attempts),
      runAt: toNumber(r.run_at),
    }));
    if (rows.length === 0) return 0;
    await send(rows);
    await trx
      .deleteFrom('job_outbox')
      .where(
        'id',
        'in',
        rows.map((r) => r.id),
      )
      .execute();
    return rows.length;
  });
}
