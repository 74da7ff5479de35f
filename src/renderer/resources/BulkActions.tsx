import { Button, CopyButton, Group, Paper, Text } from '@mantine/core';
import { useState } from 'react';
import { pluralOf } from '../../shared/resources';
import { ConfirmModal } from '../components/ConfirmModal';
import { TrashIcon } from '../components/icons';
import { notifySuccess } from '../components/notify';
import { formatCount } from '../lib/format';
import { useMutationCall } from '../queries/useCall';
import { NamesList } from './ListTools';
import type { Declared } from './naming';
import { AppKeyNote } from './AppKeyNote';
import { ReferrersNote } from './ReferrersNote';
import { BulkChangeModal, bulkFieldsOf } from './BulkChangeModal';
import { WriteButton } from './writeGate';

interface BulkTarget {
  action: string;
  label: string;
  ids: string[];
  names: string[];
  destructive: boolean;
}

/**
 * What can be done to the selected records: delete (the kind's own word for it) and the named actions declared for
 * bulk use. Each asks first, naming how many of which kind, then runs as one job (Jobs shows its per-record report;
 * a record already gone counts as done). While the list is the saved copy, every action that changes the platform is
 * off with the banner's reason, as the list's own write actions are; reading ones (copying the ids), selecting and
 * clearing stay on.
 */
export function BulkActions({
  profileId,
  declaration,
  selected,
  onClear,
  refusal,
}: {
  profileId: string;
  declaration: Declared;
  /** The selected records' ids and names, in the order they were picked. */
  selected: { id: string; name: string }[];
  onClear(): void;
  /** Why actions that change the platform are off (the list is the saved copy), or null. */
  refusal: string | null;
}) {
  const [target, setTarget] = useState<BulkTarget | null>(null);
  const [changing, setChanging] = useState(false);
  const changeable = bulkFieldsOf(declaration).length > 0;
  const bulk = useMutationCall('resources.bulk');
  const count = selected.length;
  const what = (n: number) => `${formatCount(n)} ${n === 1 ? declaration.singular : pluralOf(declaration)}`;
  const deleteWord = declaration.deleteLabel ?? 'Delete';
  const ask = (action: string, label: string, destructive: boolean) =>
    setTarget({
      action,
      label,
      destructive,
      ids: selected.map((record) => record.id),
      names: selected.map((record) => record.name),
    });
  const actions = Object.entries(declaration.actions ?? {}).filter(([, action]) => action.bulk);

  return (
    <>
      <Paper
        withBorder
        radius="sm"
        px="sm"
        py={6}
        bg="var(--mantine-primary-color-light)"
        role="region"
        aria-label="Selected records"
        data-testid="bulk-bar"
      >
        <Group justify="space-between" gap="sm" wrap="wrap">
          <Text size="sm" fw={500}>
            {what(count)} selected
          </Text>
          <Group gap="xs" wrap="wrap">
            {actions.map(([name, action]) => (
              <WriteButton
                key={name}
                size="xs"
                variant="default"
                color={action.destructive ? 'red' : undefined}
                refusal={refusal}
                onClick={() => ask(name, action.label, !!action.destructive)}
              >
                {action.label} selected
              </WriteButton>
            ))}
            {changeable && (
              <WriteButton size="xs" variant="default" refusal={refusal} onClick={() => setChanging(true)}>
                Change selected
              </WriteButton>
            )}
            {declaration.operations.delete && (
              <WriteButton
                size="xs"
                color="red"
                variant="light"
                leftSection={<TrashIcon size={14} />}
                refusal={refusal}
                onClick={() => ask('delete', deleteWord, true)}
              >
                {deleteWord} selected
              </WriteButton>
            )}
            {/* Reading, not writing: on while the list is the saved copy too (ids for the CLI, a ticket, a sheet). */}
            <CopyButton value={selected.map((record) => record.id).join('\n')}>
              {({ copied, copy }) => (
                <Button size="xs" variant="default" onClick={copy}>
                  {copied ? 'Copied' : 'Copy ids'}
                </Button>
              )}
            </CopyButton>
            <Button size="xs" variant="subtle" color="gray" onClick={onClear}>
              Clear selection
            </Button>
          </Group>
        </Group>
      </Paper>
      {changing && (
        <BulkChangeModal
          profileId={profileId}
          declaration={declaration}
          selected={selected}
          opened
          onClose={() => setChanging(false)}
          onStarted={() => {
            setChanging(false);
            onClear();
          }}
        />
      )}
      <ConfirmModal
        target={target}
        title={target ? `${target.label} ${what(target.ids.length)}` : ''}
        mutation={bulk}
        failedTitle="Not started"
        confirmLabel={(t) => `${t.label} ${what(t.ids.length)}`}
        refusal={refusal}
        onClose={() => setTarget(null)}
        onConfirm={(t, close) =>
          bulk.mutate(
            { profileId, kind: declaration.kind, action: t.action, ids: t.ids },
            {
              onSuccess: (job) => {
                close();
                onClear();
                notifySuccess(
                  `${t.label}: ${what(t.ids.length)}`,
                  job.state === 'waiting'
                    ? 'The tenant is not answering: the job waits in Jobs and goes on when it answers.'
                    : 'Running as a job: Jobs shows what became of each one.',
                );
              },
            },
          )
        }
      >
        {(t) => (
          <>
            <Text size="sm">
              {t.ids.length === 1
                ? `${t.label} this ${declaration.singular}?`
                : `${t.label} these ${what(t.ids.length)}?`}
              {t.destructive ? ' This cannot be undone.' : ''}
            </Text>
            <NamesList names={t.names} />
            {t.action === 'delete' && (
              <>
                <AppKeyNote
                  profileId={profileId}
                  declaration={declaration}
                  ids={t.ids}
                  nameOf={(id) => t.names[t.ids.indexOf(id)] ?? id}
                />
                <ReferrersNote
                  profileId={profileId}
                  declaration={declaration}
                  ids={t.ids}
                  nameOf={(id) => t.names[t.ids.indexOf(id)] ?? id}
                />
              </>
            )}
          </>
        )}
      </ConfirmModal>
    </>
  );
}
