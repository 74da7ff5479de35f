import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { Fragment, useState, type ReactNode } from 'react';
import { errorMessage } from '../bridge/errors';
import type { ConfirmMutation } from './ConfirmModal';

/**
 * Asks before an action that cannot be undone and names a person (remove them, erase what mentors remember of them):
 * what goes, then their name typed out before the red button wakes. The typed text goes with the call, so the engine
 * checks it too.
 */
export function TypedConfirmModal({
  opened,
  title,
  names,
  accepts,
  mutation,
  confirmLabel,
  onConfirm,
  onClose,
  children,
}: {
  opened: boolean;
  title: string;
  /** What may be typed, as the label offers it ("Type ada or ada@example.edu to confirm"). */
  names: readonly string[];
  /** Whether the text typed (trimmed) names the target. */
  accepts(typed: string): boolean;
  mutation: ConfirmMutation;
  confirmLabel: string;
  /** Runs the action with the text typed; `done` clears the box and the action's state, and closes. */
  onConfirm(typed: string, done: () => void): void;
  onClose(): void;
  /** What the action does, said above the box. */
  children: ReactNode;
}) {
  const [typed, setTyped] = useState('');
  const matches = accepts(typed.trim());
  const close = () => {
    setTyped('');
    mutation.reset();
    onClose();
  };
  return (
    <Modal opened={opened} onClose={close} title={title}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (matches) onConfirm(typed, close);
        }}
      >
        <Stack gap="sm">
          {children}
          <TextInput
            label={
              <>
                Type{' '}
                {names.map((name, index) => (
                  <Fragment key={name}>
                    {index > 0 && ' or '}
                    <strong>{name}</strong>
                  </Fragment>
                ))}{' '}
                to confirm
              </>
            }
            value={typed}
            onChange={(event) => setTyped(event.currentTarget.value)}
            autoComplete="off"
            spellCheck={false}
            data-autofocus
            error={mutation.isError ? errorMessage(mutation.error) : undefined}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" color="red" disabled={!matches} loading={mutation.isPending}>
              {confirmLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
