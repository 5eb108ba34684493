// The Actor helpers every service may use (kept free of heavy imports: the CLI's account
// commands load this without the analyzer or typebox). The rules: src/services/access/rules.ts.
import { forbidden } from '../../errors.js';
import type { Actor, KeyScope, Principal } from '../accounts/types.js';

/** An organisation id stands for the organisation itself: owner, every scope, every project. */
export const actorOf = (who: Principal): Actor =>
  typeof who === 'number'
    ? { orgId: who, memberId: null, role: 'owner', scopes: ['read', 'write'], projects: null }
    : who;

export function requireScope(actor: Actor, scope: KeyScope): void {
  if (!actor.scopes.includes(scope))
    throw forbidden(`Forbidden: this API key lacks the ${scope} scope (it has: ${actor.scopes.join(', ')}).`);
}
