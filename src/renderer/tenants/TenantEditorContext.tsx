import { Modal } from '@mantine/core';
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import type { Profile } from '../../shared/contract';
import { TenantForm, type EditorTarget } from './TenantForm';

interface TenantEditor {
  openAdd(): void;
  openEdit(profile: Profile): void;
}

const TenantEditorContext = createContext<TenantEditor | null>(null);

interface EditorState {
  opened: boolean;
  target: EditorTarget;
  /** A fresh form (and fresh state) for every opening. */
  session: number;
}

/** One add/edit modal for the whole app: the top bar's "Add tenant" and the Settings table both open it. */
export function TenantEditorProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<EditorState>({ opened: false, target: { mode: 'add' }, session: 0 });
  const open = useCallback(
    (target: EditorTarget) => setState((current) => ({ opened: true, target, session: current.session + 1 })),
    [],
  );
  const close = useCallback(() => setState((current) => ({ ...current, opened: false })), []);
  const editor = useMemo<TenantEditor>(
    () => ({ openAdd: () => open({ mode: 'add' }), openEdit: (profile) => open({ mode: 'edit', profile }) }),
    [open],
  );

  const title = state.target.mode === 'add' ? 'Add tenant' : `Edit ${state.target.profile.name}`;
  return (
    <TenantEditorContext.Provider value={editor}>
      {children}
      <Modal opened={state.opened} onClose={close} title={title} size="lg" centered>
        <TenantForm key={state.session} target={state.target} onCancel={close} onSaved={close} />
      </Modal>
    </TenantEditorContext.Provider>
  );
}

export function useTenantEditor(): TenantEditor {
  const editor = useContext(TenantEditorContext);
  if (!editor) throw new Error('useTenantEditor must be used inside <TenantEditorProvider>');
  return editor;
}
