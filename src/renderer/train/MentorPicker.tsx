import { Alert, Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { LoadErrorAlert } from '../components/LoadErrorAlert';
import { WarningIcon } from '../components/icons';
import { useCall } from '../queries/useCall';
import { useActiveTenant } from '../tenants/tenantContext';
import type { MentorTarget } from './TrainFlowContext';

interface MentorPickerProps {
  sourceLabel: string;
  onChoose(mentor: MentorTarget): void;
  onCancel(): void;
}

/** Files dropped where no mentor was meant: ask which mentor of the active tenant should learn them. */
export function MentorPicker({ sourceLabel, onChoose, onCancel }: MentorPickerProps) {
  const { profile: tenant } = useActiveTenant();
  const mentors = useCall('mentors.list', { profileId: tenant?.id ?? '' }, { enabled: !!tenant });
  const [chosen, setChosen] = useState<string | null>(null);
  const list = mentors.data?.mentors ?? [];
  const mentor = list.find((candidate) => candidate.uniqueId === chosen);

  return (
    <Modal opened onClose={onCancel} title="Which mentor should learn these files?" centered size="lg">
      <Stack gap="md">
        <Text size="sm">
          You dropped <strong>{sourceLabel}</strong>
          {tenant ? (
            <>
              {' '}
              on <strong>{tenant.name}</strong>
            </>
          ) : null}
          . Choose the mentor to train; nothing is sent before you confirm the preview.
        </Text>
        {!tenant && (
          <Alert color="yellow" icon={<WarningIcon />} title="No active tenant">
            Add a tenant in Settings → Tenants first.
          </Alert>
        )}
        {mentors.isError && (
          <LoadErrorAlert
            title="Mentors could not be loaded"
            error={mentors.error}
            onRetry={() => void mentors.refetch()}
          />
        )}
        <Select
          label="Mentor"
          placeholder={mentors.isPending ? 'Loading mentors…' : 'Search by name'}
          searchable
          data={list.map((candidate) => ({ value: candidate.uniqueId, label: candidate.name }))}
          value={chosen}
          onChange={setChosen}
          nothingFoundMessage="No mentor with that name"
          data-autofocus
          comboboxProps={{ withinPortal: true }}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button
            disabled={!mentor || !tenant}
            onClick={() =>
              mentor && tenant && onChoose({ profileId: tenant.id, uniqueId: mentor.uniqueId, name: mentor.name })
            }
          >
            Preview
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
