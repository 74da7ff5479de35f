/**
 * Where the import wizard is, kept outside React so leaving the screen (or switching tabs) and coming back finds the
 * same import at the same step. The rows themselves live in the engine's SQLite; this holds only ids. Each tenant has
 * its own wizard: an import opened for one tenant never shows (or is sent) under another's name.
 */
import { useEffect, useSyncExternalStore } from 'react';
import { useActiveTenant } from '../../tenants/tenantContext';

export const STEPS = ['file', 'columns', 'target', 'review', 'confirm', 'send'] as const;
export type Step = (typeof STEPS)[number];

export interface WizardState {
  importId: string | null;
  step: Step;
  jobId: string | null;
}

const initial: WizardState = { importId: null, step: 'file', jobId: null };
const byTenant = new Map<string, WizardState>();
/** The tenant whose wizard is on screen: the steps' buttons move that one. */
let shownTenant = '';
const listeners = new Set<() => void>();

export function updateWizard(change: Partial<WizardState>): void {
  byTenant.set(shownTenant, { ...(byTenant.get(shownTenant) ?? initial), ...change });
  for (const listener of listeners) listener();
}

export function resetWizard(): void {
  updateWizard(initial);
}

export function useWizard(): WizardState {
  const tenant = useActiveTenant().id ?? '';
  useEffect(() => {
    shownTenant = tenant;
  }, [tenant]);
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => byTenant.get(tenant) ?? initial,
  );
}
