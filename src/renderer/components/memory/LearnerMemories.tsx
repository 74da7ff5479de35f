/**
 * A learner's memories (the platform's UserMemory records): narrowed by category (the platform's own list, from
 * `memory-filter/`), mentor (picked by name), mode and dates; one opened with its entries, an entry's key and value
 * changed where it is shown, and the memory deleted once the learner's username is typed. Shown on a person's page and
 * on a mentor's Memory tab (there with the mentor fixed). Keyed by tenant and learner by its callers.
 */
import {
  ActionIcon,
  Badge,
  Button,
  Group,
  Modal,
  Paper,
  ScrollArea,
  SegmentedControl,
  Select,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  Textarea,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useMemo, useState } from 'react';
import { BridgeCallError, type UserMemory, type UserMemoryEntry } from '../../../shared/contract';
import { errorMessage } from '../../bridge/errors';
import { formatDateTime } from '../../lib/format';
import { useKnownPerson } from '../../resources/Members';
import { personNaming } from '../../resources/person-name';
import { useCall, useMutationCall } from '../../queries/useCall';
import { MentorPicker, useMentorNames } from '../../resources/mentor-refs';
import { DayInput } from '../DayInput';
import { LoadErrorAlert } from '../LoadErrorAlert';
import { SectionLoadError } from '../SectionReach';
import { TypedConfirmModal } from '../TypedConfirmModal';
import { EditIcon, TrashIcon } from '../icons';
import { notifySuccess } from '../notify';

/** A category as the platform names it (`knowledge_gaps`), read as words. */
export const categoryLabel = (category: string | null | undefined) =>
  category ? category.charAt(0).toUpperCase() + category.slice(1).replace(/_/g, ' ') : '—';

const MODES = [
  { value: 'any', label: 'Any mode' },
  { value: 'guided', label: 'Guided' },
  { value: 'regular', label: 'Regular' },
];

interface Filters {
  category: string | null;
  mentor: string | null;
  mode: string;
  startDate: string;
  endDate: string;
}

export function LearnerMemories({
  profileId,
  learner,
  mentor,
}: {
  profileId: string;
  learner: string;
  /** A mentor's Memory tab: only its memories, and no mentor filter. */
  mentor?: { uniqueId: string; name: string };
}) {
  const [filters, setFilters] = useState<Filters>({
    category: null,
    mentor: null,
    mode: 'any',
    startDate: '',
    endDate: '',
  });
  const [open, setOpen] = useState<string | null>(null);
  // Said by their full name where the directory knows it; the username stays what a delete asks to be typed.
  const learnerName = personNaming(useKnownPerson(profileId, { username: learner }), { username: learner }).name;
  const options = useCall('memory.filterOptions', { profileId });
  // Kept while the platform's list is the same: new options on every render could drop the keyboard's highlight.
  const categoryOptions = useMemo(
    () => (options.data?.categories ?? []).map((value) => ({ value, label: categoryLabel(value) })),
    [options.data],
  );
  const chosenMentor = mentor?.uniqueId ?? filters.mentor;
  const list = useCall('memory.memories', {
    profileId,
    learner,
    ...(filters.category && { category: filters.category }),
    ...(chosenMentor && { mentor: chosenMentor }),
    ...(filters.mode !== 'any' && { mode: filters.mode }),
    ...(filters.startDate && { startDate: filters.startDate }),
    ...(filters.endDate && { endDate: filters.endDate }),
  });
  const memories = useMemo(() => list.data?.memories ?? [], [list.data]);
  const mentorIds = useMemo(
    () => (mentor ? null : [...new Set(memories.map((m) => m.mentor).filter((m): m is string => !!m))].sort()),
    [memories, mentor],
  );
  const names = useMentorNames(profileId, mentorIds);
  const mentorName = (id: string | null) =>
    id ? ((mentor?.uniqueId === id ? mentor.name : names.get(id)) ?? id) : '—';
  const filtering =
    !!filters.category || !!filters.mentor || filters.mode !== 'any' || !!filters.startDate || !!filters.endDate;
  const set = (change: Partial<Filters>) => setFilters((current) => ({ ...current, ...change }));

  return (
    <Paper withBorder radius="md" p="md" data-testid="learner-memories">
      <Stack gap="sm">
        <Stack gap={2}>
          <Title order={3} size="h5">
            Memories
          </Title>
          <Text size="xs" c="dimmed">
            What {mentor ? mentor.name : 'mentors'} remember{mentor ? 's' : ''} of {learnerName}, memory by memory: open
            one to see and change its entries.
          </Text>
        </Stack>
        <Group gap="xs" align="flex-end" wrap="wrap">
          <Select
            label="Category"
            placeholder="Any category"
            searchable
            clearable
            data={categoryOptions}
            value={filters.category}
            onChange={(category) => set({ category })}
            w={150}
            comboboxProps={{ withinPortal: true }}
            clearButtonProps={{ 'aria-label': 'Clear category', 'aria-hidden': false, tabIndex: 0 }}
          />
          {!mentor && (
            <MentorPicker
              profileId={profileId}
              label="Mentor"
              placeholder="Any mentor"
              value={filters.mentor}
              onChange={(picked) => set({ mentor: picked || null })}
              w={190}
              clearButtonProps={{ 'aria-label': 'Clear mentor', 'aria-hidden': false, tabIndex: 0 }}
            />
          )}
          {/* Its "Any mode" says what it is, as the lists' filters do: no label above, level with the inputs. */}
          <SegmentedControl
            aria-label="Mode"
            size="xs"
            data={MODES}
            value={filters.mode}
            onChange={(mode) => set({ mode })}
            mb={4}
          />
          <DayInput
            label="From"
            placeholder="Any day"
            clearable
            maxDay={filters.endDate || undefined}
            value={filters.startDate}
            onChange={(startDate) => set({ startDate })}
            w={150}
          />
          <DayInput
            label="To"
            placeholder="Any day"
            clearable
            minDay={filters.startDate || undefined}
            value={filters.endDate}
            onChange={(endDate) => set({ endDate })}
            w={150}
          />
          {filtering && (
            <Button
              variant="subtle"
              onClick={() => setFilters({ category: null, mentor: null, mode: 'any', startDate: '', endDate: '' })}
            >
              Clear filters
            </Button>
          )}
        </Group>
        {list.error ? (
          // On a person's page an unreachable tenant is said once for every section (SectionReach); alone, here.
          <SectionLoadError
            section="memories"
            title={`The memories of ${learnerName} could not be read`}
            error={list.error}
            onRetry={() => void list.refetch()}
          />
        ) : list.isPending ? (
          <Skeleton height={60} />
        ) : memories.length === 0 ? (
          <Text size="sm" c="dimmed" data-testid="memories-empty">
            {filtering ? 'No memories match these filters.' : `${learnerName} has no memories.`}
          </Text>
        ) : (
          <ScrollArea type="auto" offsetScrollbars>
            <Table striped verticalSpacing={6} aria-label={`Memories of ${learnerName}`} miw={760}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Memory</Table.Th>
                  <Table.Th>Category</Table.Th>
                  {!mentor && <Table.Th>Mentor</Table.Th>}
                  <Table.Th>Mode</Table.Th>
                  <Table.Th>Entries</Table.Th>
                  <Table.Th>Updated</Table.Th>
                  <Table.Th w={44} aria-label="Actions" />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {memories.map((memory) => {
                  const id = memory.unique_id ?? memory.name ?? '';
                  const title = memory.name || memory.unique_id || '—';
                  return (
                    <Table.Tr key={id}>
                      <Table.Td maw={280}>
                        <UnstyledButton
                          onClick={() => setOpen(id)}
                          c="var(--mantine-primary-color-text)"
                          fw={500}
                          fz="sm"
                          style={{ overflowWrap: 'break-word' }}
                        >
                          {title}
                        </UnstyledButton>
                      </Table.Td>
                      <Table.Td>{categoryLabel(memory.category)}</Table.Td>
                      {!mentor && (
                        <Table.Td style={{ overflowWrap: 'break-word' }}>{mentorName(memory.mentor)}</Table.Td>
                      )}
                      <Table.Td>{memory.mode}</Table.Td>
                      <Table.Td>{memory.entries.length}</Table.Td>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(memory.updated_at)}</Table.Td>
                      <Table.Td>
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          aria-label={`Delete ${title}`}
                          onClick={() => setOpen(`delete:${id}`)}
                        >
                          <TrashIcon size={16} />
                        </ActionIcon>
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </ScrollArea>
        )}
      </Stack>
      <MemoryModal
        profileId={profileId}
        learner={learner}
        learnerName={learnerName}
        memory={open && !open.startsWith('delete:') ? open : null}
        mentorName={mentorName}
        onDelete={(id) => setOpen(`delete:${id}`)}
        onClose={() => setOpen(null)}
      />
      <DeleteMemoryModal
        profileId={profileId}
        learner={learner}
        memory={
          open?.startsWith('delete:') ? (memories.find((m) => (m.unique_id ?? m.name) === open.slice(7)) ?? null) : null
        }
        onClose={() => setOpen(null)}
      />
    </Paper>
  );
}

/** One memory: what it is tied to, and its entries, each changed where it is shown. */
function MemoryModal({
  profileId,
  learner,
  learnerName,
  memory,
  mentorName,
  onDelete,
  onClose,
}: {
  profileId: string;
  learner: string;
  /** The learner's full name where the directory knows it, else their username. */
  learnerName: string;
  memory: string | null;
  mentorName(id: string | null): string;
  onDelete(id: string): void;
  onClose(): void;
}) {
  const read = useCall('memory.memory', { profileId, learner, memory: memory ?? '' }, { enabled: !!memory });
  const data = read.data;
  const facts: [string, string][] = data
    ? [
        ['Category', categoryLabel(data.category)],
        ['Mentor', mentorName(data.mentor)],
        ['Mode', data.mode],
        ['Session', data.session_id ?? '—'],
        [
          'Catalogue item',
          data.catalog_item_id ? `${data.catalog_item_type ?? ''} ${data.catalog_item_id}`.trim() : '—',
        ],
        ['Made', `${formatDateTime(data.inserted_at)}${data.is_auto_generated ? ' (by the mentor)' : ''}`],
        ['Updated', formatDateTime(data.updated_at)],
      ]
    : [];
  return (
    <Modal opened={!!memory} onClose={onClose} title={`Memory “${data?.name || memory}” of ${learnerName}`} size="lg">
      {read.error ? (
        <LoadErrorAlert title="The memory could not be read" error={read.error} onRetry={() => void read.refetch()} />
      ) : !data ? (
        <Skeleton height={120} />
      ) : (
        <Stack gap="md" data-testid="memory-detail">
          <Table withRowBorders={false} verticalSpacing={2} aria-label="About this memory">
            <Table.Tbody>
              {facts.map(([label, value]) => (
                <Table.Tr key={label}>
                  <Table.Th w={140} fw={500} c="dimmed">
                    {label}
                  </Table.Th>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{value}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <Stack gap="xs">
            <Group gap="xs">
              <Text fw={600} size="sm">
                Entries
              </Text>
              <Badge variant="light" radius="sm">
                {data.entries.length}
              </Badge>
            </Group>
            {data.entries.length === 0 ? (
              <Text size="sm" c="dimmed">
                No entries.
              </Text>
            ) : (
              data.entries.map((entry, index) => (
                <EntryRow key={entry.unique_id ?? index} profileId={profileId} learner={learner} entry={entry} />
              ))
            )}
          </Stack>
          <Group justify="space-between">
            <Button
              variant="subtle"
              color="red"
              leftSection={<TrashIcon size={16} />}
              onClick={() => onDelete(data.unique_id ?? memory!)}
            >
              Delete memory…
            </Button>
            <Button variant="default" onClick={onClose}>
              Close
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

/** An entry read, or changed in place: its key and value, the platform's refusals at their fields. */
function EntryRow({ profileId, learner, entry }: { profileId: string; learner: string; entry: UserMemoryEntry }) {
  const [editing, setEditing] = useState(false);
  const [key, setKey] = useState(entry.key);
  const [value, setValue] = useState(entry.value ?? '');
  const save = useMutationCall('memory.entrySave');
  const issues = save.error instanceof BridgeCallError ? (save.error.issues ?? []) : [];
  const at = (field: string) => issues.find((issue) => issue.path === field)?.message;
  const general = save.error && !at('key') && !at('value') ? errorMessage(save.error) : undefined;
  if (!editing) {
    return (
      <Paper withBorder radius="sm" p="xs" data-testid="memory-entry">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Stack gap={2} style={{ minWidth: 0 }}>
            <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
              {entry.key}
            </Text>
            <Text size="sm" style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
              {entry.value ?? ''}
            </Text>
            <Text size="xs" c="dimmed">
              {categoryLabel(entry.category)} · updated {formatDateTime(entry.updated_at)}
              {entry.expires_at ? ` · expires ${formatDateTime(entry.expires_at)}` : ''}
            </Text>
          </Stack>
          {entry.unique_id && (
            <ActionIcon
              variant="subtle"
              aria-label={`Edit ${entry.key}`}
              onClick={() => {
                setKey(entry.key);
                setValue(entry.value ?? '');
                save.reset();
                setEditing(true);
              }}
            >
              <EditIcon size={16} />
            </ActionIcon>
          )}
        </Group>
      </Paper>
    );
  }
  return (
    <Paper withBorder radius="sm" p="xs">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          save.mutate(
            { profileId, learner, entry: entry.unique_id!, key, value },
            {
              onSuccess: (saved) => {
                notifySuccess('Memory entry saved', `${saved.key} for ${learner}`);
                setEditing(false);
              },
            },
          );
        }}
      >
        <Stack gap="xs">
          <TextInput
            label="Key"
            value={key}
            onChange={(event) => setKey(event.currentTarget.value)}
            error={at('key')}
            data-autofocus
            autoFocus
          />
          <Textarea
            label="Value"
            autosize
            minRows={2}
            maxRows={8}
            value={value}
            onChange={(event) => setValue(event.currentTarget.value)}
            error={at('value')}
          />
          {general && (
            <Text size="sm" c="red">
              {general}
            </Text>
          )}
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={() => setEditing(false)}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending} disabled={!key.trim()}>
              Save entry
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

/** Deleting a memory, asked for with the learner's username typed out. */
function DeleteMemoryModal({
  profileId,
  learner,
  memory,
  onClose,
}: {
  profileId: string;
  learner: string;
  memory: UserMemory | null;
  onClose(): void;
}) {
  const remove = useMutationCall('memory.memoryDelete');
  const id = memory?.unique_id ?? memory?.name ?? '';
  const title = memory?.name || id;
  return (
    <TypedConfirmModal
      opened={!!memory}
      title={`Delete the memory “${title}” of ${learner}?`}
      names={[learner]}
      accepts={(typed) => typed === learner}
      mutation={remove}
      confirmLabel="Delete memory"
      onConfirm={(typed, done) =>
        remove.mutate(
          { profileId, learner, memory: id, confirm: typed },
          {
            onSuccess: (result) => {
              notifySuccess(
                result.deleted ? 'Memory deleted' : 'Nothing to delete',
                result.deleted ? `“${title}” of ${learner}` : `${learner} no longer had “${title}”.`,
              );
              done();
            },
          },
        )
      }
      onClose={onClose}
    >
      <Text size="sm">
        This deletes <strong>{learner}</strong>’s memory “{title}” and its {memory?.entries.length ?? 0}{' '}
        {memory?.entries.length === 1 ? 'entry' : 'entries'}: mentors no longer remember them. It cannot be undone.
      </Text>
    </TypedConfirmModal>
  );
}
