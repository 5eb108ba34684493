// The instance admin's feature (docs/teams.md "The instance admin"): every person and
// organisation with their usage, disabling a person, resetting a second factor, making admins.
// Who may is the access table's `instance.*` rows (the instance admin only).
import type { Role } from '../accounts/types.js';
import type { InstanceEntryRow } from '../../store/instance-log.repository.js';

/** One change in the instance log (who, when, from where, what). */
export type InstanceEntry = InstanceEntryRow;

export interface AdminUser {
  id: number;
  name: string;
  email: string | null;
  isAdmin: boolean;
  disabledAt: string | null;
  totpEnabled: boolean;
  hasPassword: boolean;
  organizations: { name: string; role: Role }[];
}

export interface AdminOrganization {
  id: number;
  name: string;
  createdAt: string;
  members: number;
  reports: number;
  /** crawls started this calendar month (UTC) */
  crawls: number;
  /** pages audited this calendar month (UTC): single audits and crawls' pages */
  pagesAudited: number;
  /**
   * bytes of stored text of its reports, their runs, its crawls and their pages (UTF-8,
   * `octet_length`; not disk pages, indexes or compression)
   */
  storageBytes: number;
}

export interface AdminServices {
  users(): Promise<AdminUser[]>;
  /** with this month's usage */
  organizations(): Promise<AdminOrganization[]>;
  /**
   * disables (or enables) a person (name, email or id; 404 unknown): their sessions end and their
   * keys stop at once, in every process
   */
  setDisabled(user: string | number, disabled: boolean): Promise<AdminUser>;
  /** makes or unmakes an instance admin (never the last one: 422 `admin`) */
  setAdmin(user: string | number, admin: boolean): Promise<AdminUser>;
  /** turns a person's second factor off (they enrol again) */
  resetSecondFactor(user: string | number): Promise<AdminUser>;
  /** the instance log, newest first (default 50 entries): the instance admin's changes */
  log(limit?: number): Promise<InstanceEntry[]>;
}
