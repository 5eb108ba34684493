// The branding object of GET/PUT /api/v1/account/branding.
import type { Branding } from '../../services/branding/types.js';

export function presentBranding(b: Branding) {
  return {
    name: b.name,
    accent_color: b.accentColor,
    contact: b.contact,
    prepared_for: b.preparedFor,
    logo: b.logo ? { type: b.logo.type, bytes: b.logo.bytes, data_url: b.logo.dataUrl } : null,
    updated_at: b.updatedAt,
  };
}
