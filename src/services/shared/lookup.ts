// "By name or id": how the CLI and the instance admin name a person or an organisation. A
// number is an id; text is a name first, then (a person) an email when it holds "@", then an
// id when it is all digits — so a person or organisation named "42" is found by that name.
import type { Db } from '../../store/database.js';
import { findOrgById, findOrgByName, type OrgRow } from '../../store/organizations.repository.js';
import { findUserByEmail, findUserById, findUserByName, type UserRow } from '../../store/users.repository.js';

const ID_RE = /^\d{1,10}$/;

async function byNameOrId<T>(
  ref: string | number,
  byId: (id: number) => Promise<T | null>,
  byName: (name: string) => Promise<T | null>,
  byEmail?: (email: string) => Promise<T | null>,
): Promise<T | null> {
  if (typeof ref === 'number') return byId(ref);
  return (
    (await byName(ref)) ??
    (byEmail && ref.includes('@') ? await byEmail(ref.trim().toLowerCase()) : null) ??
    (ID_RE.test(ref) ? await byId(Number(ref)) : null)
  );
}

/** A person by id, name, email or id as text; null when none. */
export function findUserRef(db: Db, ref: string | number): Promise<UserRow | null> {
  return byNameOrId(
    ref,
    (id) => findUserById(db, id),
    (name) => findUserByName(db, name),
    (email) => findUserByEmail(db, email),
  );
}

/** An organisation by id, name or id as text; null when none. */
export function findOrgRef(db: Db, ref: string | number): Promise<OrgRow | null> {
  return byNameOrId(
    ref,
    (id) => findOrgById(db, id),
    (name) => findOrgByName(db, name),
  );
}
