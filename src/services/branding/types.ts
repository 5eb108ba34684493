// The branding feature's types: the PDF reports' branding per organisation and per project,
// its limits, the service.
import type { Principal } from '../accounts/types.js';

export const MAX_LOGO_BYTES = 256 * 1024;
export const TEXT_LIMITS = { name: 100, contact: 200, prepared_for: 200 } as const;
export const ACCENT_FORMAT = '#rrggbb (six hexadecimal digits, such as #1d4ed8)';

// a user's branding as shown is the contract's (the presenter's input), as are the logo types
export type { Branding, LogoType } from '../../contract/branding.js';
export { LOGO_TYPES } from '../../contract/branding.js';
import type { Branding } from '../../contract/branding.js';

/**
 * A change: a field given replaces the stored one, `null` or '' clears it, a field left out
 * stays as it is. `logo` is a data: URL (`data:image/png;base64,…`) or bare base64.
 */
export interface BrandingInput {
  name?: string | null | undefined;
  accentColor?: string | null | undefined;
  contact?: string | null | undefined;
  preparedFor?: string | null | undefined;
  logo?: string | null | undefined;
}

export interface BrandingServices {
  /** the actor's branding (empty when never set) */
  get(who: Principal): Promise<Branding>;
  /** validates (422 naming each field) and saves; returns the branding as stored */
  put(who: Principal, input: BrandingInput): Promise<Branding>;
  /** removes every field and the logo */
  clear(who: Principal): Promise<void>;
  /** a project's own branding (empty when never set); 404 for a project missing or not seen */
  getProject(who: Principal, project: string): Promise<Branding>;
  /** as `put`, for a project: its fields replace the organisation's on the project's PDFs */
  putProject(who: Principal, project: string, input: BrandingInput): Promise<Branding>;
  /** removes a project's own branding (its PDFs show the organisation's again) */
  clearProject(who: Principal, project: string): Promise<void>;
  /**
   * the branding of a report's PDF (access to the report is decided before): its organisation's,
   * with each field its project sets in place of the organisation's
   */
  ofReport(reportId: number): Promise<Branding>;
}
