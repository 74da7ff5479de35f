/**
 * Where the import wizard is, kept outside React so leaving the screen (or switching tabs) and coming back finds the
 * same import at the same step. The rows themselves live in the engine's SQLite; this holds only ids.
 */
import { useSyncExternalStore } from 'react';

export const STEPS = ['file', 'columns', 'target', 'review', 'confirm', 'send'] as const;
export type Step = (typeof STEPS)[number];

export interface WizardState {
  importId: string | null;
  step: Step;
  jobId: string | null;
}

const initial: WizardState = { importId: null, step: 'file', jobId: null };
let state: WizardState = initial;
const listeners = new Set<() => void>();

export function updateWizard(change: Partial<WizardState>): void {
  state = { ...state, ...change };
  for (const listener of listeners) listener();
}

export function resetWizard(): void {
  updateWizard(initial);
}

export function useWizard(): WizardState {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => state,
  );
}
