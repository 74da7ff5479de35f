import { BridgeCallError } from '../../shared/contract';
import { ConnectionLostError } from '../bridge/errors';

/** What the admin can do about a failed load, when there is more to do than ask again. */
export interface NextStep {
  text: string;
  /** The fix is in the tenant's connection: offer its editor (where Test connection says what fails). */
  editTenant: boolean;
}

/** What to do when the tenant does not answer at all. */
export const UNREACHABLE_NEXT =
  "Check the tenant's address and that its server is running: Edit tenant, then Test connection says what fails.";

/**
 * The next step for an error from the tenant: out of reach, or refusing the key, points at the tenant's connection;
 * a tenant in trouble (5xx, 429) at patience. Anything else (the engine's own words already say what to do) has none.
 */
export function nextStep(error: unknown): NextStep | null {
  if (!(error instanceof BridgeCallError) || error instanceof ConnectionLostError) return null;
  if (error.code === 'unreachable') return { text: UNREACHABLE_NEXT, editTenant: true };
  if (error.code !== 'api' || error.status === undefined) return null;
  if (error.status === 401) {
    return { text: 'The tenant did not accept the key: paste a current one in Edit tenant.', editTenant: true };
  }
  if (error.status === 403) {
    return {
      text: "The key's user may not do this here: check the org and username in Edit tenant, or use an admin's key.",
      editTenant: true,
    };
  }
  if (error.status === 429 || error.status >= 500) {
    return { text: 'The tenant is busy or having trouble; try again in a few minutes.', editTenant: false };
  }
  return null;
}

/** Whether the error says the tenant cannot be reached (for the cloud icon). */
export const isUnreachable = (error: unknown) =>
  error instanceof BridgeCallError && error.code === 'unreachable' && !(error instanceof ConnectionLostError);
