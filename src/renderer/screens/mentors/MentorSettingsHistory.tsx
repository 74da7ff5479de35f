/**
 * The local history of a mentor's settings: one snapshot per save from this app (and how they were found before
 * the first), any two compared field by field, and a revert to one (a save like any other, itself kept).
 */
import { Badge, Checkbox, Code, Paper, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useState } from 'react';
import type { SnapshotSummary } from '../../../shared/contract/resource-history';
import { RESOURCES } from '../../../shared/resources';
import { ConfirmModal } from '../../components/ConfirmModal';
import { LoadErrorAlert } from '../../components/LoadErrorAlert';
import { formatDateTime } from '../../lib/format';
import { useCall, useMutationCall } from '../../queries/useCall';
import { WriteButton } from '../../resources/writeGate';
import type { MentorTarget } from '../../train/TrainFlowContext';

const KIND = 'mentor-settings' as const;
const labelOf = (field: string) => RESOURCES[KIND].fields.find((f) => f.name === field)?.label ?? field;

const REASON: Record<SnapshotSummary['reason'], { label: string; color: string }> = {
  found: { label: 'As found', color: 'gray' },
  saved: { label: 'Saved', color: 'blue' },
  reverted: { label: 'Reverted', color: 'violet' },
};

/** A value in a diff cell: text as it is, anything else as JSON; "not set" for nothing. */
function Shown({ value }: { value: unknown }) {
  if (value === null || value === undefined || value === '') {
    return (
      <Text size="sm" c="dimmed">
        Not set
      </Text>
    );
  }
  if (typeof value === 'string') {
    return (
      <Text size="sm" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
        {value}
      </Text>
    );
  }
  return (
    <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', maxHeight: 160, overflow: 'auto' }}>
      {JSON.stringify(value, null, 2)}
    </Code>
  );
}

export function MentorSettingsHistory({
  mentor,
  refusal,
}: {
  mentor: MentorTarget;
  /** Why Revert is off now (the tenant cannot be reached), or null: comparing still works. */
  refusal: string | null;
}) {
  const parent = { profileId: mentor.profileId, kind: KIND, key: mentor.uniqueId };
  const history = useCall('resources.history', parent);
  const [picked, setPicked] = useState<number[]>([]);
  const [reverting, setReverting] = useState<SnapshotSummary | null>(null);
  const revert = useMutationCall('resources.revert');
  const snapshots = history.data?.snapshots ?? [];
  // Oldest picked first: the comparison reads as "from → to".
  const [from, to] = [...picked].sort((a, b) => a - b);
  const compared = from !== undefined;

  const toggle = (id: number) =>
    setPicked((now) => (now.includes(id) ? now.filter((x) => x !== id) : [...now, id].slice(-2)));

  return (
    <Paper
      withBorder
      radius="md"
      p="md"
      component="section"
      aria-label="Settings history"
      data-testid="settings-history"
    >
      <Stack gap="sm">
        <div>
          <Title order={3} size="h5">
            History
          </Title>
          <Text size="sm" c="dimmed">
            Kept on this computer, one snapshot per save. Pick two to compare them, or one to compare it with now.
          </Text>
        </div>
        {history.isError && (
          <LoadErrorAlert
            title="The history could not be read"
            error={history.error}
            onRetry={() => void history.refetch()}
          />
        )}
        {history.data && snapshots.length === 0 && (
          <Text size="sm" c="dimmed">
            No saves from this app yet.
          </Text>
        )}
        {snapshots.length > 0 && (
          <Table.ScrollContainer minWidth={560}>
            <Table verticalSpacing={6} aria-label="Snapshots">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={40}>
                    <VisuallyHidden>Compare</VisuallyHidden>
                  </Table.Th>
                  <Table.Th>When</Table.Th>
                  <Table.Th>What</Table.Th>
                  <Table.Th>Fields</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {snapshots.map((snapshot, index) => {
                  const reason = REASON[snapshot.reason];
                  return (
                    <Table.Tr key={snapshot.id} data-snapshot={snapshot.id}>
                      <Table.Td>
                        <Checkbox
                          aria-label={`Compare the snapshot of ${formatDateTime(snapshot.takenAt)}`}
                          checked={picked.includes(snapshot.id)}
                          onChange={() => toggle(snapshot.id)}
                        />
                      </Table.Td>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>
                        <Text size="sm">{formatDateTime(snapshot.takenAt)}</Text>
                      </Table.Td>
                      <Table.Td>
                        <Badge variant="light" color={reason.color} radius="sm">
                          {reason.label}
                        </Badge>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm" c={snapshot.changed.length ? undefined : 'dimmed'}>
                          {snapshot.changed.length ? snapshot.changed.map(labelOf).join(', ') : '—'}
                        </Text>
                      </Table.Td>
                      <Table.Td style={{ textAlign: 'right' }}>
                        {index > 0 && (
                          <WriteButton
                            size="xs"
                            variant="default"
                            refusal={refusal}
                            onClick={() => setReverting(snapshot)}
                          >
                            Revert to this
                          </WriteButton>
                        )}
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        {compared && <SnapshotDiff parent={parent} from={from} to={to ?? 'current'} />}
      </Stack>
      <ConfirmModal
        target={reverting}
        title="Revert the settings"
        mutation={revert}
        failedTitle="Not reverted"
        refusal={refusal}
        confirmLabel="Revert"
        onConfirm={(snapshot, close) =>
          revert.mutate({ ...parent, snapshotId: snapshot.id }, { onSuccess: () => close() })
        }
        onClose={() => {
          revert.reset();
          setReverting(null);
        }}
      >
        {(snapshot) =>
          `Save ${mentor.name}'s settings as they were on ${formatDateTime(snapshot.takenAt)}? Every field that differs from now is saved to the platform; this is kept as a snapshot too.`
        }
      </ConfirmModal>
    </Paper>
  );
}

function SnapshotDiff({
  parent,
  from,
  to,
}: {
  parent: { profileId: string; kind: typeof KIND; key: string };
  from: number;
  to: number | 'current';
}) {
  const diff = useCall('resources.historyDiff', { ...parent, from, to });
  const changes = diff.data?.changes ?? [];
  return (
    <Stack gap="xs" data-testid="settings-diff">
      <Text size="sm" fw={500}>
        {to === 'current' ? 'That snapshot compared with now' : 'The older snapshot compared with the newer'}
      </Text>
      {diff.isError && <LoadErrorAlert title="Not compared" error={diff.error} onRetry={() => void diff.refetch()} />}
      {diff.data && changes.length === 0 && (
        <Text size="sm" c="dimmed">
          No differences.
        </Text>
      )}
      {changes.length > 0 && (
        <Table.ScrollContainer minWidth={560}>
          <Table withTableBorder verticalSpacing={6} aria-label="Differences">
            <Table.Thead>
              <Table.Tr>
                <Table.Th w="22%">Setting</Table.Th>
                <Table.Th>Before</Table.Th>
                <Table.Th>After</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {changes.map((change) => (
                <Table.Tr key={change.field} data-field={change.field}>
                  <Table.Td>
                    <Text size="sm" fw={500}>
                      {change.label}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Shown value={change.before} />
                  </Table.Td>
                  <Table.Td>
                    <Shown value={change.after} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
