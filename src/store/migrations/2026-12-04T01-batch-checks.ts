// A batch's link and resource checks (issue 21 §1, docs/sites.md "Links and resources checked").
// Frozen once released: never imports application code, never edited; later changes are new
// migrations.
//
// batch_checks: one row per URL a batch checked besides its pages (an internal link target
// outside the crawl's bounds, a resource, an external link), written as soon as its answer is
// in — a check step killed midway is taken up again without asking those URLs again. `kind`:
// internal, resource or external; `verdict`: ok, broken, blocked (429/403/999 from another
// host), or unchecked (robots.txt, the per-batch cap, the address guard; never requested);
// the final status, the error, and where a redirect ended. Leaves with its batch.
import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const statements = [
    `CREATE TABLE batch_checks (
      batch_id INTEGER NOT NULL REFERENCES batches(id) ON DELETE CASCADE,
      url TEXT NOT NULL,
      kind TEXT NOT NULL,
      verdict TEXT NOT NULL,
      status INTEGER,
      error TEXT,
      redirect_to TEXT,
      PRIMARY KEY (batch_id, url)
    )`,
  ];
  for (const s of statements) await sql.raw(s).execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw(`DROP TABLE IF EXISTS batch_checks`).execute(db);
}
