import {
  Anchor,
  Badge,
  Group,
  Loader,
  MultiSelect,
  Select,
  Stack,
  Text,
  type MultiSelectProps,
  type SelectProps,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useMemo, useState, type ReactNode } from 'react';
import {
  RESOURCES,
  isResourceKind,
  pluralOf,
  referrersOf,
  type ResourceDeclaration,
  type ResourceKind,
} from '../../shared/resources';
import { isUnreachable } from '../components/nextStep';
import { NOT_AVAILABLE_OFFLINE } from '../components/FreshnessBar';
import { formatCount } from '../lib/format';
import { errorMessage } from '../bridge/errors';
import { useIdle } from '../lib/useIdle';
import { useCall } from '../queries/useCall';
import { narrowedListHref, navigateTo } from '../shell/routes';
import { referencedIds } from './fields/values';
import { capitalized, titleBeside, titleOf } from './naming';
import { KEYBOARD_SAFE_OPEN, pickedIds, pickOptions } from './pick-options';
import { ResourceImportModal } from './ResourceImportModal';
import { WriteButton, writeRefusalOf } from './writeGate';
import { MembersList } from './Members';

const PICK_PAGE = 50;
/** One empty list for every render before a picker's records arrive, so its options stay the same too. */
const NO_RECORDS: readonly Record<string, unknown>[] = [];

/**
 * The records a picker of `kind` offers: the first page of its cached list, or of what a search finds there. Read once
 * the browser is idle: a form with several pickers (a mentor's settings) paints before their lists are asked for.
 * Once opened it reads the kind from the tenant again: a record made elsewhere since the cache was filled (a category
 * added in the vendor's admin a minute ago) is offered, the cached list showing meanwhile.
 */
function usePickable(profileId: string, kind: string, search: string, opened: boolean) {
  const [debounced] = useDebouncedValue(search.trim(), 200);
  const declaration = isResourceKind(kind) ? RESOURCES[kind] : null;
  const idle = useIdle();
  const fresh = useCall(
    'resources.list',
    { profileId, kind: isResourceKind(kind) ? kind : 'api-tokens', pageSize: PICK_PAGE, refresh: true },
    { enabled: !!declaration && opened },
  );
  const list = useCall(
    'resources.list',
    {
      profileId,
      kind: isResourceKind(kind) ? kind : 'api-tokens',
      pageSize: PICK_PAGE,
      ...(debounced ? { search: debounced } : {}),
    },
    { enabled: !!declaration && idle },
  );
  return { declaration, records: list.data?.records ?? NO_RECORDS, fetching: list.isFetching || fresh.isFetching };
}

/**
 * A field that takes another kind's record: its records from that kind's cached list, searchable by name, the value
 * being the record's id (as the platform types it: a number stays a number).
 */
export function RecordPicker({
  profileId,
  kind,
  value,
  onChange,
  valueField,
  ...props
}: Omit<SelectProps, 'data' | 'value' | 'onChange'> & {
  profileId: string;
  kind: string;
  value?: unknown;
  /** The record field the value is (default the kind's id field): a person by `username`, say. */
  valueField?: string | undefined;
  onChange(value: unknown): void;
}) {
  const [search, setSearch] = useState('');
  const [opened, setOpened] = useState(false);
  const { declaration, records, fetching } = usePickable(profileId, kind, search, opened);
  const current = value === null || value === undefined || value === '' ? null : String(value);
  // The chosen record stays offered while a search shows others. Kept while neither changes (see MentorPicker).
  const { data, ids } = useMemo(
    () =>
      pickOptions(
        records,
        valueField ?? declaration?.idField ?? '',
        (record) => titleOf(declaration as ResourceDeclaration, record),
        current === null ? [] : [current],
      ),
    [records, valueField, declaration, current],
  );
  return (
    <Select
      {...props}
      searchable
      clearable
      data={data}
      value={current}
      searchValue={search}
      onSearchChange={setSearch}
      onDropdownOpen={() => {
        setOpened(true);
        props.onDropdownOpen?.();
      }}
      {...KEYBOARD_SAFE_OPEN}
      // The engine searched the kind's own search fields (a person's username and email, not only the label shown):
      // filtering again by label would hide what it found.
      filter={({ options }) => options}
      onChange={(picked) => onChange(picked === null ? null : (ids.get(picked) ?? picked))}
      rightSection={fetching ? <Loader size={14} /> : undefined}
      nothingFoundMessage={declaration ? `No ${pluralOf(declaration)} match` : undefined}
    />
  );
}

/** A field that holds a list of another kind's ids (a mentor's categories): several picked by name. */
export function RecordsPicker({
  profileId,
  kind,
  value,
  onChange,
  valueField,
  ...props
}: Omit<MultiSelectProps, 'data' | 'value' | 'onChange'> & {
  profileId: string;
  kind: string;
  value?: unknown;
  /** The record field the values are (default the kind's id field). */
  valueField?: string | undefined;
  onChange(value: (string | number)[]): void;
}) {
  const [search, setSearch] = useState('');
  const [opened, setOpened] = useState(false);
  const { declaration, records, fetching } = usePickable(profileId, kind, search, opened);
  const chosen = referencedIds(value);
  const { data, ids } = pickOptions(
    records,
    valueField ?? declaration?.idField ?? '',
    (record) => titleOf(declaration as ResourceDeclaration, record),
    chosen,
  );
  return (
    <MultiSelect
      {...props}
      searchable
      clearable
      data={data}
      value={chosen.map(String)}
      searchValue={search}
      onSearchChange={setSearch}
      onDropdownOpen={() => {
        setOpened(true);
        props.onDropdownOpen?.();
      }}
      filter={({ options }) => options}
      onChange={(picked) => onChange(pickedIds(picked, ids))}
      rightSection={fetching ? <Loader size={14} /> : undefined}
      nothingFoundMessage={declaration ? `No ${pluralOf(declaration)} match` : undefined}
    />
  );
}

/**
 * In a record's details: the records of other kinds that refer to it (an LTI key's tools), each a link. Their write
 * actions (an import of a department's members) are off with the reason while the record's list or the related list
 * is the saved copy, as the list's own are.
 */
export function RelatedLists({
  profileId,
  declaration,
  id,
  name,
  refusal = null,
  notes = {},
}: {
  profileId: string;
  declaration: ResourceDeclaration;
  id: string;
  /** Said under a related list's heading, by the related kind (a course's Enrolled: how people get in). */
  notes?: Partial<Record<string, ReactNode>>;
  /** What people call the record (a department's name): an import of its members says it. */
  name?: string;
  /** Why writes are off for the record's list (it is the saved copy), or null. */
  refusal?: string | null;
}) {
  // Relations through paths or nested keys are no equality on a field: they are named before a delete only.
  const referrers = referrersOf(declaration.kind, Object.values(RESOURCES) as ResourceDeclaration[]).filter(
    (r) => !r.path && !r.key,
  );
  if (!referrers.length) return null;
  return (
    <Stack gap="md" data-testid="related-lists">
      {referrers.map(({ declaration: other, field, heading }) => (
        <RelatedList
          key={`${other.kind}.${field}`}
          profileId={profileId}
          declaration={other}
          field={field}
          id={id}
          heading={heading ?? `${capitalized(pluralOf(other))} that use it`}
          refusal={refusal}
          note={notes[other.kind]}
          {...(name !== undefined && { group: name })}
        />
      ))}
    </Stack>
  );
}

function RelatedList({
  profileId,
  declaration,
  field,
  id,
  heading,
  group,
  refusal: listRefusal,
  note,
}: {
  note?: ReactNode;
  profileId: string;
  declaration: ResourceDeclaration;
  field: string;
  id: string;
  heading: string;
  refusal: string | null;
  /** The name of the group whose details these are, for a membership kind's import into it. */
  group?: string;
}) {
  const kind = isResourceKind(declaration.kind) ? declaration.kind : null;
  const [importing, setImporting] = useState(false);
  const list = useCall(
    'resources.list',
    { profileId, kind: kind ?? 'api-tokens', where: { [field]: id }, pageSize: 20 },
    { enabled: !!kind },
  );
  const total = list.data?.total ?? 0;
  // Either list being the saved copy means the tenant did not answer: nothing is sent to it from here.
  const refusal = listRefusal ?? writeRefusalOf(list.data?.freshness);
  return (
    <Stack gap={4}>
      <Group gap="xs">
        <Text size="xs" c="dimmed">
          {heading}
        </Text>
        {list.isSuccess && (
          <Badge size="xs" variant="light" color="gray">
            {formatCount(total)}
          </Badge>
        )}
        {kind && declaration.membership && group && (
          <WriteButton size="compact-xs" variant="subtle" refusal={refusal} onClick={() => setImporting(true)}>
            Import CSV
          </WriteButton>
        )}
      </Group>
      {kind && declaration.membership && group && (
        <ResourceImportModal
          profileId={profileId}
          declaration={{ ...declaration, kind }}
          opened={importing}
          onClose={() => setImporting(false)}
          group={{ id, name: group }}
        />
      )}
      {note}
      {kind && declaration.membership && group ? (
        <MembersList
          profileId={profileId}
          declaration={{ ...declaration, kind }}
          groupField={field}
          groupId={id}
          groupName={group}
          groupWord={RESOURCES[declaration.membership.groupKind as ResourceKind]?.singular ?? 'group'}
          listRefusal={refusal}
        />
      ) : (
        <RelatedRecords declaration={declaration} list={list} field={field} id={id} />
      )}
    </Stack>
  );
}

/** The first records that refer to the record, each a link, and how many more there are: a link to their list. */
function RelatedRecords({
  declaration,
  list,
  field,
  id,
}: {
  declaration: ResourceDeclaration;
  list: ReturnType<typeof useCall<'resources.list'>>;
  /** The field naming the record they refer to, and its id: the link to all of them narrows their list by it. */
  field: string;
  id: string;
}) {
  const records = list.data?.records ?? [];
  const total = list.data?.total ?? 0;
  return (
    <>
      {list.isPending && <Loader size="xs" />}
      {list.isError && (
        // Quiet: the record's list above says when the tenant is not answering; this only says what is missing.
        <Text size="sm" c="dimmed" data-testid="related-unavailable">
          {isUnreachable(list.error) ? NOT_AVAILABLE_OFFLINE : `Could not be loaded: ${errorMessage(list.error)}`}
        </Text>
      )}
      {list.isSuccess && total === 0 && (
        <Text size="sm" c="dimmed">
          None.
        </Text>
      )}
      {records.map((record) => {
        const recordId = String(record[declaration.idField]);
        return (
          <Anchor
            key={recordId}
            component="button"
            type="button"
            size="sm"
            ta="left"
            onClick={() => navigateTo(`#/${declaration.area}/${declaration.kind}/${encodeURIComponent(recordId)}`)}
          >
            {titleBeside(declaration, record, field)}
          </Anchor>
        );
      })}
      {total > records.length && (
        <Anchor size="xs" href={narrowedListHref(declaration.area, declaration.kind, { [field]: id })}>
          and {formatCount(total - records.length)} more
        </Anchor>
      )}
    </>
  );
}
