/**
 * A department's or user group's members in its details: the whole list, searched and paged from the kit's saved copy
 * of the membership kind narrowed to the group, with Add member (a person picked from the directory) and Remove (asked
 * first, naming the person and the group). Writes go through the kit's own create and delete of the membership kind.
 */
import { Anchor, Group, Loader, Pagination, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import type { ResourceRecord } from '../../shared/contract';
import { ConfirmModal } from '../components/ConfirmModal';
import { SearchIcon, TrashIcon } from '../components/icons';
import { notifyError, notifySuccess } from '../components/notify';
import { isUnreachable } from '../components/nextStep';
import { errorMessage } from '../bridge/errors';
import { formatCount } from '../lib/format';
import { useCall, useMutationCall } from '../queries/useCall';
import { navigateTo } from '../shell/routes';
import type { Declared } from './naming';
import { personNaming } from './person-name';
import { PersonSelect } from './PersonSelect';
import { WriteButton, WriteIcon, useWriteRefusal } from './writeGate';
import { NOT_AVAILABLE_OFFLINE } from '../components/FreshnessBar';

const MEMBERS_PAGE = 20;
/** People of the directory whose name matches a members search, asked for their usernames. */
const NAMED_PEOPLE = 200;

/** What the directory knows of one person (their full name), from the users kind's saved copy. */
export function useKnownPerson(
  profileId: string,
  held: { user_id?: unknown; username?: unknown },
): ResourceRecord | undefined {
  const byId = typeof held.user_id === 'number' || (typeof held.user_id === 'string' && held.user_id !== '');
  const where: Record<string, string> | null = byId
    ? { user_id: String(held.user_id) }
    : typeof held.username === 'string' && held.username
      ? { username: held.username }
      : null;
  const found = useCall(
    'resources.list',
    { profileId, kind: 'users', where: where ?? {}, pageSize: 1 },
    { enabled: where !== null },
  );
  return found.data?.records[0];
}

/** A person named as the directory knows them: their full name, the username in the tooltip and beside it. */
export function PersonName({
  profileId,
  held,
  link = true,
}: {
  profileId: string;
  held: { user_id?: unknown; username?: unknown; email?: unknown };
  /** Opens the person's page. */
  link?: boolean;
}) {
  const known = useKnownPerson(profileId, held);
  const { name, username } = personNaming(known, held);
  const userId = held.user_id ?? known?.user_id;
  const label = (
    <>
      {name}
      {username && (
        <Text span size="xs" c="dimmed">
          {' '}
          · {username}
        </Text>
      )}
    </>
  );
  return (
    <Tooltip label={username ?? name} withArrow openDelay={400}>
      {link && userId !== undefined && userId !== null ? (
        <Anchor
          component="button"
          type="button"
          size="sm"
          ta="left"
          onClick={() => navigateTo(`#/people-and-access/users/${encodeURIComponent(String(userId))}`)}
        >
          {label}
        </Anchor>
      ) : (
        <Text span size="sm">
          {label}
        </Text>
      )}
    </Tooltip>
  );
}

export function MembersList({
  profileId,
  declaration,
  groupField,
  groupId,
  groupName,
  groupWord,
  listRefusal,
}: {
  profileId: string;
  /** The membership kind (department members, user group members). */
  declaration: Declared;
  groupField: string;
  groupId: string;
  groupName: string;
  /** "department", "user group": said in the confirmation. */
  groupWord: string;
  listRefusal: string | null;
}) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 250);
  const [page, setPage] = useState(1);
  const [adding, setAdding] = useState<string | null>(null);
  const [removing, setRemoving] = useState<{ record: ResourceRecord; name: string } | null>(null);
  // The members' records hold usernames and emails, not names: the directory says which usernames a name belongs to,
  // and members with those usernames match the search too.
  const named = useCall(
    'resources.list',
    { profileId, kind: 'users', search: debounced, pageSize: NAMED_PEOPLE },
    { enabled: debounced !== '' },
  );
  const namedUsernames = (named.data?.records ?? [])
    .map((person) => person.username)
    .filter((username): username is string => typeof username === 'string' && username !== '');
  const list = useCall(
    'resources.list',
    {
      profileId,
      kind: declaration.kind,
      where: { [groupField]: groupId },
      page,
      pageSize: MEMBERS_PAGE,
      ...(debounced && { search: debounced }),
      ...(namedUsernames.length > 0 && { searchAlso: { field: 'username', values: namedUsernames } }),
    },
    // A search waits for the directory's answer (or its failure: then by username and email alone).
    { enabled: debounced === '' || !named.isPending },
  );
  const refusal = useWriteRefusal(list.data?.freshness) ?? listRefusal;
  const add = useMutationCall('resources.create');
  const remove = useMutationCall('resources.delete');
  const records = list.data?.records ?? [];
  const total = list.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / MEMBERS_PAGE));
  const groupValue = Number.isFinite(Number(groupId)) ? Number(groupId) : groupId;

  function addMember(username: string) {
    add.mutate(
      { profileId, kind: declaration.kind, values: { [groupField]: groupValue, username } },
      {
        onSuccess: () => {
          setAdding(null);
          notifySuccess('Member added', `${username} is now in ${groupName}`);
        },
        onError: (error) => notifyError(`Not added to ${groupName}`, error),
      },
    );
  }

  return (
    <Stack gap={6} data-testid="members-list">
      <Group gap="xs" wrap="wrap">
        <TextInput
          aria-label={`Search the members of ${groupName}`}
          placeholder="Search by name, username or email"
          size="xs"
          leftSection={<SearchIcon />}
          value={search}
          onChange={(event) => {
            setSearch(event.currentTarget.value);
            setPage(1);
          }}
          style={{ flex: '1 1 200px' }}
        />
      </Group>
      <Group gap="xs" wrap="nowrap" align="flex-end">
        <PersonSelect
          profileId={profileId}
          valueField="username"
          aria-label={`Person to add to ${groupName}`}
          placeholder="Add a person by name or email"
          size="xs"
          value={adding}
          onChange={setAdding}
          clearable
          style={{ flex: '1 1 auto' }}
          comboboxProps={{ withinPortal: true }}
        />
        <WriteButton
          size="xs"
          refusal={refusal}
          loading={add.isPending}
          disabled={!adding && !refusal}
          onClick={() => adding && addMember(adding)}
        >
          Add member
        </WriteButton>
      </Group>
      {list.isPending && <Loader size="xs" />}
      {list.isError && (
        <Text size="sm" c="dimmed" data-testid="related-unavailable">
          {isUnreachable(list.error) ? NOT_AVAILABLE_OFFLINE : `Could not be loaded: ${errorMessage(list.error)}`}
        </Text>
      )}
      {list.isSuccess && total === 0 && (
        <Text size="sm" c="dimmed">
          {debounced ? 'No member matches.' : 'No members yet.'}
        </Text>
      )}
      {records.map((record) => (
        <MemberRow
          key={String(record[declaration.idField])}
          profileId={profileId}
          record={record}
          groupName={groupName}
          refusal={refusal}
          onRemove={(name) => setRemoving({ record, name })}
        />
      ))}
      {pages > 1 && (
        <Group gap="xs" justify="space-between">
          <Text size="xs" c="dimmed" data-testid="members-total">
            {formatCount(total)} members
          </Text>
          <Pagination size="xs" total={pages} value={page} onChange={setPage} aria-label="Pages of members" />
        </Group>
      )}
      <ConfirmModal
        target={removing}
        title="Remove member"
        mutation={remove}
        failedTitle="Not removed"
        confirmLabel="Remove"
        refusal={refusal}
        onClose={() => setRemoving(null)}
        onConfirm={({ record, name }, close) =>
          remove.mutate(
            { profileId, kind: declaration.kind, id: String(record[declaration.idField]) },
            {
              onSuccess: () => {
                close();
                notifySuccess('Member removed', `${name} is no longer in ${groupName}`);
              },
            },
          )
        }
      >
        {({ name }) => (
          <Text size="sm">
            Remove {name} from the {groupWord} {groupName}? They stay on the tenant.
          </Text>
        )}
      </ConfirmModal>
    </Stack>
  );
}

function MemberRow({
  profileId,
  record,
  groupName,
  refusal,
  onRemove,
}: {
  profileId: string;
  record: ResourceRecord;
  groupName: string;
  refusal: string | null;
  onRemove(name: string): void;
}) {
  const known = useKnownPerson(profileId, record);
  const { name } = personNaming(known, record);
  return (
    <Group gap="xs" wrap="nowrap" justify="space-between" data-testid="member-row">
      <PersonName profileId={profileId} held={record} />
      <WriteIcon
        refusal={refusal}
        label={`Remove ${name} from ${groupName}`}
        variant="subtle"
        color="red"
        size="sm"
        onClick={() => onRemove(name)}
      >
        <TrashIcon />
      </WriteIcon>
    </Group>
  );
}
