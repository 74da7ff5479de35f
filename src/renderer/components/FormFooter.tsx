import { Alert, Button, Group } from '@mantine/core';
import type { ReactNode } from 'react';
import { WarningIcon } from './icons';

interface FormFooterProps {
  /** Why the last save failed, shown above the buttons (line breaks kept). */
  error: string | null;
  saving: boolean;
  submitLabel: string;
  onCancel(): void;
  /** Another action, at the start of the row (e.g. "Test connection"). */
  secondary?: ReactNode;
}

/** The end of an editing form: what went wrong, then Cancel (off while saving) and the submit button. */
export function FormFooter({ error, saving, submitLabel, onCancel, secondary }: FormFooterProps) {
  return (
    <>
      {error && (
        <Alert color="red" title="Not saved" icon={<WarningIcon />} style={{ whiteSpace: 'pre-line' }}>
          {error}
        </Alert>
      )}
      <Group justify={secondary ? 'space-between' : 'flex-end'} gap="sm">
        {secondary}
        <Group gap="sm" justify="flex-end">
          <Button variant="default" onClick={onCancel} disabled={saving}>
            Cancel
          </Button>
          <Button type="submit" loading={saving}>
            {submitLabel}
          </Button>
        </Group>
      </Group>
    </>
  );
}
