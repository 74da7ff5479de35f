import type { ReactNode } from 'react';
import { Alert, Button, Group, Modal, Stack } from '@mantine/core';
import { errorMessage } from '../bridge/errors';
import { WarningIcon } from './icons';

/** The part of a mutation a confirm modal shows: pending on its button, its error in an alert, reset on close. */
export interface ConfirmMutation {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  reset(): void;
}

interface ConfirmModalProps<T> {
  /** What is asked about; the modal is open while it is set. */
  target: T | null;
  title: string;
  /** The action's call, when the modal stays open while it runs and shows its error; else it says nothing of it. */
  mutation?: ConfirmMutation;
  /** Title of the alert that shows why the mutation failed, e.g. "Not deleted". */
  failedTitle?: string;
  cancelLabel?: string;
  confirmLabel: ReactNode | ((target: T) => ReactNode);
  /** Runs the mutation; `close` resets it and closes the modal, for its `onSuccess`. */
  onConfirm(target: T, close: () => void): void;
  onClose(): void;
  /** Why the action cannot be done now (the tenant cannot be reached): said, and the confirm button is off. */
  refusal?: string | null;
  /** The question, naming the target. */
  children(target: T): ReactNode;
}

/** Asks before a destructive action: the question, the action's error if it failed, Cancel (focused) and a red confirm. */
export function ConfirmModal<T>({
  target,
  title,
  mutation,
  failedTitle,
  cancelLabel = 'Cancel',
  confirmLabel,
  onConfirm,
  onClose,
  refusal = null,
  children,
}: ConfirmModalProps<T>) {
  function close() {
    mutation?.reset();
    onClose();
  }

  return (
    <Modal opened={target !== null} onClose={close} title={title} centered>
      {target !== null && (
        <Stack gap="md">
          {children(target)}
          {refusal && (
            <Alert color="yellow" icon={<WarningIcon />} data-testid="confirm-refusal">
              {refusal}
            </Alert>
          )}
          {mutation?.isError && (
            <Alert color="red" title={failedTitle} icon={<WarningIcon />}>
              {errorMessage(mutation.error)}
            </Alert>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close} data-autofocus>
              {cancelLabel}
            </Button>
            <Button
              color="red"
              loading={mutation?.isPending}
              disabled={!!refusal}
              onClick={() => onConfirm(target, close)}
            >
              {typeof confirmLabel === 'function' ? confirmLabel(target) : confirmLabel}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
