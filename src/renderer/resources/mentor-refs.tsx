/**
 * A kit field or column that holds a mentor's unique id (a call configuration's `mentor`): mentors are not a kit kind
 * (the mentors area owns their list and cache), so the picker and the names come from that area's `mentors.list`.
 */
import { Loader, Select, type SelectProps } from '@mantine/core';
import { useMemo, useState } from 'react';
import { RESOURCES, type ResourceDeclaration, type ResourceKind } from '../../shared/resources';
import { referredLabel, referredNames } from './naming';
import { KEYBOARD_SAFE_OPEN, pickOptions, takenValues } from './pick-options';
import { useCall } from '../queries/useCall';
import { shownValue } from './readable';

/**
 * The tenant's mentors by unique id (from the mentors area's cache), read only when some ids are asked for; an id the
 * cache does not know (a mentor made elsewhere since) has the list read again from the platform, once.
 */
export function useMentorNames(profileId: string, ids: readonly string[] | null): ReadonlyMap<string, string> {
  const cached = useCall('mentors.list', { profileId }, { enabled: ids !== null });
  const known = useMemo(
    () => new Map((cached.data?.mentors ?? []).map((mentor) => [mentor.uniqueId, mentor.name])),
    [cached.data],
  );
  const missing = !!ids?.some((id) => !known.has(id));
  const fresh = useCall('mentors.list', { profileId, refresh: true }, { enabled: missing && cached.isSuccess });
  return useMemo(() => {
    if (!fresh.data) return known;
    return new Map([...known, ...fresh.data.mentors.map((mentor) => [mentor.uniqueId, mentor.name] as const)]);
  }, [known, fresh.data]);
}

/**
 * A record's value as its list and details show it: an option's label, a mentor's name for a mentor's id, a course's
 * name for a course's id (a column that references another kind). `records`: those on screen, whose mentors are
 * looked up.
 */
export function useShownValue(
  profileId: string,
  declaration: ResourceDeclaration,
  records: readonly Record<string, unknown>[],
) {
  const mentorFields = useMemo(
    () =>
      new Set([
        ...declaration.columns.filter((column) => column.format === 'mentor').map((column) => column.field),
        ...declaration.fields.filter((field) => field.references === 'mentors').map((field) => field.name),
      ]),
    [declaration],
  );
  const ids = useMemo(() => {
    if (!mentorFields.size) return null;
    const found = new Set<string>();
    for (const record of records) {
      for (const field of mentorFields) if (typeof record[field] === 'string') found.add(record[field]);
    }
    return [...found].sort();
  }, [records, mentorFields]);
  const names = useMentorNames(profileId, ids);
  const referred = useReferredNames(profileId, declaration);
  return (field: string, value: unknown): unknown => {
    if (typeof value !== 'string') return shownValue(declaration, field, value);
    if (mentorFields.has(field)) return names.get(value) ?? value;
    if (referred.fields.has(field)) return referredLabel(referred.names, referred.whole, value);
    return shownValue(declaration, field, value);
  };
}

/** How many of the referred kind's records are read for their names (the cache's largest page). */
const REFERRED_PAGE = 500;

/**
 * Names for the columns that hold another kind's ids (a review's course, a licence's program): that kind's records
 * from this tenant's cache, by the field the column holds (their id field unless said), named by their first
 * column. One referred kind per list (every declaration has at most one); an id not among them is said to be missing
 * when the kind was read whole (`referredLabel`).
 */
function useReferredNames(profileId: string, declaration: ResourceDeclaration) {
  const kind = declaration.columns.find((column) => column.references)?.references as ResourceKind | undefined;
  const referred = useCall(
    'resources.list',
    { profileId, kind: kind ?? 'courses', pageSize: REFERRED_PAGE },
    { enabled: !!kind },
  );
  return useMemo(() => {
    const data = referred.data;
    // Read whole: every record the platform lists is here, so an id not among them is not in the catalogue.
    const whole = !!data && data.listed && data.records.length >= data.total;
    return { ...referredNames(declaration, kind ? RESOURCES[kind] : undefined, data?.records ?? []), whole };
  }, [declaration, kind, referred.data]);
}

/**
 * Picks one of the tenant's mentors by name; the value is its unique id (one not in the list stays offered). Opened,
 * it reads the list from the platform too, so a mentor made elsewhere a moment ago is offered. `uniqueIn`: mentors
 * that a record of that kind already names in this `field` are not offered (each has one call configuration).
 */
export function MentorPicker({
  profileId,
  value,
  onChange,
  uniqueIn,
  ...props
}: Omit<SelectProps, 'data' | 'value' | 'onChange'> & {
  profileId: string;
  value?: unknown;
  onChange(value: string | null): void;
  uniqueIn?: { kind: ResourceKind; field: string } | undefined;
}) {
  const [opened, setOpened] = useState(false);
  const cached = useCall('mentors.list', { profileId });
  const fresh = useCall('mentors.list', { profileId, refresh: true }, { enabled: opened });
  const others = useCall(
    'resources.list',
    { profileId, kind: uniqueIn?.kind ?? 'call-configurations', pageSize: 500 },
    { enabled: !!uniqueIn },
  );
  const taken = useMemo(
    () => (uniqueIn ? takenValues(others.data?.records ?? [], uniqueIn.field) : new Set<string>()),
    [uniqueIn, others.data],
  );
  const mentors = fresh.data?.mentors ?? cached.data?.mentors;
  const current = typeof value === 'string' && value ? value : null;
  // Kept while neither list nor choice changes: new options on every render (a read's progress, the list behind)
  // could drop the option the keyboard highlighted before Enter picks it.
  const { data } = useMemo(
    () =>
      pickOptions(
        (mentors ?? []).map((mentor) => ({ uniqueId: mentor.uniqueId, name: mentor.name })),
        'uniqueId',
        (mentor) => String(mentor.name),
        current === null ? [] : [current],
        taken,
      ),
    [mentors, current, taken],
  );
  const fetching = cached.isFetching || fresh.isFetching || others.isFetching;
  return (
    <Select
      {...props}
      searchable
      clearable
      data={data}
      value={current}
      onChange={onChange}
      onDropdownOpen={() => setOpened(true)}
      {...KEYBOARD_SAFE_OPEN}
      rightSection={fetching ? <Loader size={14} /> : undefined}
      nothingFoundMessage={
        fresh.isFetching
          ? 'Reading the tenant’s mentors…'
          : taken.size && !data.length
            ? 'Every mentor has one already'
            : 'No mentors match'
      }
    />
  );
}
