/**
 * Who is enrolled in a program or a pathway, in its details: "Enrol someone…" (a username or an email; the platform's
 * refusal at the person), "Import CSV" (a file of people enrolled in this item by the enrolment job) and "Unenrol"
 * after a confirm naming the person and the item. A program lists its people
 * (its enrolment search); the platform lists a pathway's enrolments only one person at a time, so a pathway's
 * "Unenrol someone…" takes the person typed.
 */
import { Anchor, Badge, Button, Group, Loader, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { BridgeCallError, type ResourceRecord } from '../../../shared/contract';
import { RESOURCES } from '../../../shared/resources';
import { ResourceImportModal } from '../../resources/ResourceImportModal';
import { errorMessage } from '../../bridge/errors';
import { ConfirmModal } from '../../components/ConfirmModal';
import { notifySuccess } from '../../components/notify';
import { formatCount } from '../../lib/format';
import { useCall, useMutationCall } from '../../queries/useCall';
import { narrowedListHref } from '../../shell/routes';

type Item = { type: 'program' | 'pathway'; id: string; name: string; key?: string };

/** The item a program's or a pathway's record names, as the enrolment calls take it. */
export function enrollableOf(type: Item['type'], record: ResourceRecord): Item {
  const data = (record.data ?? {}) as Record<string, unknown>;
  const text = (...values: unknown[]) => values.find((v): v is string => typeof v === 'string' && v !== '') ?? '';
  const id =
    type === 'program'
      ? text(record.program_id, data.program_id, record.slug, data.slug, record.program_key)
      : text(record.pathway_id);
  const key = text(record.program_key, data.program_key);
  return { type, id, name: text(record.name) || id, ...(key && { key }) };
}

export function EnrolmentSection({ profileId, item }: { profileId: string; item: Item }) {
  const [mode, setMode] = useState<'enrol' | 'unenrol' | null>(null);
  const [leaving, setLeaving] = useState<string | null>(null);
  const [importing, setImporting] = useState(false);
  const unenrol = useMutationCall('catalogue.unenrol');
  const programKey = item.key ?? item.id;
  const people = useCall(
    'resources.list',
    {
      profileId,
      kind: 'program-enrollments',
      where: { program_key: programKey },
      pageSize: 10,
      refresh: true,
    },
    { enabled: item.type === 'program' },
  );
  const records = people.data?.records ?? [];
  const total = people.data?.total ?? 0;

  return (
    <Stack gap={6} data-testid="catalogue-enrolment">
      <Group gap="xs" wrap="wrap">
        <Text size="xs" c="dimmed">
          Enrolled
        </Text>
        {item.type === 'program' && people.isSuccess && (
          <Badge size="xs" variant="light" color="gray">
            {formatCount(total)}
          </Badge>
        )}
        <Anchor component="button" type="button" size="xs" onClick={() => setMode('enrol')}>
          Enrol someone…
        </Anchor>
        <Anchor component="button" type="button" size="xs" onClick={() => setImporting(true)}>
          Import CSV
        </Anchor>
        {item.type === 'pathway' && (
          <Anchor component="button" type="button" size="xs" onClick={() => setMode('unenrol')}>
            Unenrol someone…
          </Anchor>
        )}
      </Group>
      {item.type === 'program' && people.isPending && <Loader size="xs" />}
      {item.type === 'program' && people.isSuccess && total === 0 && (
        <Text size="sm" c="dimmed">
          No one yet.
        </Text>
      )}
      {records.map((record) => {
        const username = String(record.username ?? '');
        return (
          <Group key={username} gap="xs" justify="space-between" wrap="nowrap">
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {username}
            </Text>
            <Anchor
              component="button"
              type="button"
              size="sm"
              c="red"
              onClick={() => setLeaving(username)}
              aria-label={`Unenrol ${username}`}
            >
              Unenrol
            </Anchor>
          </Group>
        );
      })}
      {total > records.length && (
        <Anchor size="xs" href={narrowedListHref('catalogue', 'program-enrollments', { program_key: programKey })}>
          and {formatCount(total - records.length)} more in Program enrolments
        </Anchor>
      )}
      <PersonModal profileId={profileId} item={item} mode={mode} onClose={() => setMode(null)} />
      <ResourceImportModal
        profileId={profileId}
        declaration={RESOURCES['program-enrollments']}
        opened={importing}
        onClose={() => setImporting(false)}
        group={{ id: item.id, name: item.name }}
      />
      <ConfirmModal
        target={leaving}
        title="Unenrol"
        mutation={unenrol}
        failedTitle="Not unenrolled"
        confirmLabel="Unenrol"
        onClose={() => setLeaving(null)}
        onConfirm={(username, close) =>
          unenrol.mutate(
            { profileId, person: username, item: item.id },
            {
              onSuccess: (change) => {
                notifySuccess('Unenrolled', change.message);
                close();
              },
            },
          )
        }
      >
        {(username) => (
          <Text size="sm">
            End <strong>{username}</strong>’s enrolment in <strong>{item.name}</strong>? Their progress stays on the
            platform; enrolling them again gives them access back.
          </Text>
        )}
      </ConfirmModal>
    </Stack>
  );
}

/** Asks for the person (username or email); for an unenrolment the button says who and what before it is pressed. */
function PersonModal({
  profileId,
  item,
  mode,
  onClose,
}: {
  profileId: string;
  item: Item;
  mode: 'enrol' | 'unenrol' | null;
  onClose(): void;
}) {
  const enrol = useMutationCall('catalogue.enrol');
  const unenrol = useMutationCall('catalogue.unenrol');
  const mutation = mode === 'unenrol' ? unenrol : enrol;
  const [person, setPerson] = useState('');
  const issues = mutation.error instanceof BridgeCallError ? (mutation.error.issues ?? []) : [];
  const atPerson = issues.find((issue) => issue.path === 'person')?.message;
  const general = mutation.error && !atPerson ? errorMessage(mutation.error) : undefined;
  const close = () => {
    enrol.reset();
    unenrol.reset();
    setPerson('');
    onClose();
  };
  return (
    <Modal
      opened={mode !== null}
      onClose={close}
      centered
      title={mode === 'unenrol' ? `Unenrol someone from ${item.name}` : `Enrol someone in ${item.name}`}
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          mutation.mutate(
            { profileId, person, item: item.id },
            {
              onSuccess: (change) => {
                notifySuccess(
                  change.outcome === 'enrolled'
                    ? 'Enrolled'
                    : change.outcome === 'unenrolled'
                      ? 'Unenrolled'
                      : 'Nothing changed',
                  change.message,
                );
                close();
              },
            },
          );
        }}
      >
        <Stack gap="md">
          <TextInput
            label="Person"
            description="Their username or email on this tenant."
            placeholder="ada@example.edu"
            value={person}
            onChange={(event) => {
              setPerson(event.currentTarget.value);
              mutation.reset();
            }}
            error={atPerson}
            data-autofocus
          />
          {general && (
            <Text size="sm" c="red">
              {general}
            </Text>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button
              type="submit"
              color={mode === 'unenrol' ? 'red' : undefined}
              loading={mutation.isPending}
              disabled={!person.trim()}
            >
              {mode === 'unenrol' ? `Unenrol ${person.trim() || 'them'}` : 'Enrol'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
