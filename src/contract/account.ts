// The account object of GET /api/v1/account, and an API key as the API shows it (never the secret).
import type { Account, ApiKeyInfo } from '../services/accounts/types.js';

export function presentApiKey(k: ApiKeyInfo) {
  return {
    id: k.id,
    prefix: k.prefix,
    scopes: k.scopes,
    projects: k.projects,
    created_at: k.createdAt,
    last_used_at: k.lastUsedAt,
    expires_at: k.expiresAt,
  };
}

export function presentAccount(a: Account) {
  return {
    id: a.id,
    name: a.name,
    created_at: a.createdAt,
    reports_count: a.reportsCount,
    projects_count: a.projectsCount,
    key: presentApiKey(a.key),
  };
}
