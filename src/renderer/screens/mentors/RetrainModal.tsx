import { Alert, Button, Group, Modal, NumberInput, Stack, Switch, Text } from '@mantine/core';
import { useState } from 'react';
import type { MentorDocument } from '../../../shared/contract';
import { errorMessage } from '../../bridge/errors';
import { WarningIcon } from '../../components/icons';
import { notifySuccess } from '../../components/notify';
import { useMutationCall } from '../../queries/useCall';

interface RetrainModalProps {
  profileId: string;
  mentor: string;
  document: MentorDocument | null;
  onClose(): void;
}

/** How often the platform retrains a document (useful for web pages that change); off means never. */
export function RetrainModal({ profileId, mentor, document, onClose }: RetrainModalProps) {
  return (
    <Modal opened={document !== null} onClose={onClose} title="Retrain interval" centered>
      {document && (
        <RetrainForm key={document.id} profileId={profileId} mentor={mentor} document={document} onClose={onClose} />
      )}
    </Modal>
  );
}

function RetrainForm({ profileId, mentor, document, onClose }: RetrainModalProps & { document: MentorDocument }) {
  const [enabled, setEnabled] = useState(!!document.retrainIntervalDays);
  const [days, setDays] = useState<number | string>(document.retrainIntervalDays || 30);
  const save = useMutationCall('documents.setRetrain');
  const valid = !enabled || (typeof days === 'number' && Number.isInteger(days) && days >= 1);

  function submit() {
    const retrainIntervalDays = enabled ? Number(days) : null;
    save.mutate(
      { profileId, mentor, documentId: document.id, retrainIntervalDays },
      {
        onSuccess: () => {
          notifySuccess(
            'Retrain interval saved',
            retrainIntervalDays
              ? `${document.name} is retrained every ${retrainIntervalDays} days.`
              : `${document.name} is not retrained.`,
          );
          onClose();
        },
      },
    );
  }

  return (
    <Stack gap="md">
      <Text size="sm">
        <strong>{document.name}</strong>
      </Text>
      <Switch
        label="Retrain on a schedule"
        checked={enabled}
        onChange={(event) => setEnabled(event.currentTarget.checked)}
      />
      <NumberInput
        label="Every"
        rightSection={
          <Text size="sm" c="dimmed" pr="md">
            days
          </Text>
        }
        rightSectionWidth={60}
        min={1}
        allowDecimal={false}
        value={days}
        onChange={setDays}
        disabled={!enabled}
        error={!valid ? 'At least 1 day' : undefined}
        w={200}
      />
      {save.isError && (
        <Alert color="red" title="Not saved" icon={<WarningIcon />}>
          {errorMessage(save.error)}
        </Alert>
      )}
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button onClick={submit} disabled={!valid} loading={save.isPending}>
          Save
        </Button>
      </Group>
    </Stack>
  );
}
