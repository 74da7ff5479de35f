import { Alert, Button, Group } from '@mantine/core';
import { useRef, useState, type ReactNode } from 'react';
import { WarningIcon } from '../../components/icons';

/**
 * The unsaved-change guard of the kit's dialogs: Escape, the close button or Cancel with changes typed asks first,
 * so nothing typed is lost by a slip of the key. The form reports whether it is dirty through `setDirty`.
 */
export function useDiscardGuard(onClose: () => void): {
  setDirty(dirty: boolean): void;
  /** Closes without asking (after a save). */
  close(): void;
  /** Closes, asking first when something was typed. */
  leave(): void;
  /** The question, shown above the form while it is asked. */
  prompt: ReactNode;
} {
  const dirty = useRef(false);
  const [asking, setAsking] = useState(false);
  const close = () => {
    dirty.current = false;
    setAsking(false);
    onClose();
  };
  const prompt = asking ? (
    <Alert color="yellow" icon={<WarningIcon />} title="Discard what you typed?" mb="md" role="alertdialog">
      <Group gap="sm" mt="xs">
        <Button size="xs" variant="default" onClick={() => setAsking(false)} data-autofocus>
          Keep editing
        </Button>
        <Button size="xs" color="red" onClick={close}>
          Discard
        </Button>
      </Group>
    </Alert>
  ) : null;
  return {
    setDirty: (value) => (dirty.current = value),
    close,
    leave: () => (dirty.current ? setAsking(true) : close()),
    prompt,
  };
}
