// A batch's project (docs/sites.md, "Projects as sites"): `project` is its start URL's host as
// reports name theirs (lower-cased, one trailing dot and one leading `www.` dropped), so that a
// project's crawls are one indexed read (user_id, project, id) instead of a scan of every batch.
// `reports_created` and `reports_updated` count the reports a batch made and the ones it added a
// run to (one report per page of a project). Existing batches get their project from their URL
// here (in JavaScript: SQL has no portable URL parser); their report counters stay 0.
// Frozen once released: never imports application code, never edited.
import { sql, type Kysely } from 'kysely';

function projectOf(url: string): string | null {
  try {
    const host = new URL(url).hostname.toLowerCase().replace(/\.$/, '');
    return host.startsWith('www.') ? host.slice(4) : host;
  } catch {
    return null;
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(`ALTER TABLE batches ADD COLUMN project TEXT`).execute(db);
  await sql.raw(`ALTER TABLE batches ADD COLUMN reports_created INTEGER NOT NULL DEFAULT 0`).execute(db);
  await sql.raw(`ALTER TABLE batches ADD COLUMN reports_updated INTEGER NOT NULL DEFAULT 0`).execute(db);
  for (let after = 0; ; ) {
    const rows = (await db
      .selectFrom('batches')
      .select(['id', 'url'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(1000)
      .execute()) as { id: number; url: string }[];
    if (rows.length === 0) break;
    for (const r of rows) {
      await db.updateTable('batches').set({ project: projectOf(r.url) }).where('id', '=', r.id).execute();
    }
    after = rows[rows.length - 1]!.id;
  }
  await sql.raw(`CREATE INDEX batches_user_project ON batches (user_id, project, id)`).execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw(`DROP INDEX batches_user_project`).execute(db);
  await sql.raw(`ALTER TABLE batches DROP COLUMN reports_updated`).execute(db);
  await sql.raw(`ALTER TABLE batches DROP COLUMN reports_created`).execute(db);
  await sql.raw(`ALTER TABLE batches DROP COLUMN project`).execute(db);
}
