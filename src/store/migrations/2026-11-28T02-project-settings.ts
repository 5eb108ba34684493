// A project's settings (docs/sites.md, "Projects as sites"): two columns on its projects row.
// `settings` holds the JSON of the settings that are no secret (start URL, mode, limits,
// schedule, header and cookie names, the basic-auth user name, ignore rules); `secrets` holds
// the secret values (header and cookie values, the basic-auth password) as one AES-256-GCM
// ciphertext made with PAGEGRADE_SECRET_KEY. Both null: a project that only holds reports, as
// before. A row whose settings are set stays when its last report goes (a site set up before its
// first report has 0 reports). Frozen once released: never imports application code, never edited.
import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(`ALTER TABLE projects ADD COLUMN settings TEXT`).execute(db);
  await sql.raw(`ALTER TABLE projects ADD COLUMN secrets TEXT`).execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw(`ALTER TABLE projects DROP COLUMN secrets`).execute(db);
  await sql.raw(`ALTER TABLE projects DROP COLUMN settings`).execute(db);
}
