/**
 * One person picked from the tenant's directory (the users kind's cached search, by name, username or email), for
 * any screen that acts on one person. The option's value is the field the caller sends: their user id, email or username.
 */
import { Select, type SelectProps } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useMemo, useState } from 'react';
import type { ResourceRecord } from '../../shared/contract';
import { useCall } from '../queries/useCall';

type Option = { value: string; label: string };

/** "Ada Lovelace · ada (ada@example.edu)": the name first, then what tells two people of one name apart. */
export function personLabel(person: ResourceRecord): string {
  const { name, username, email } = person;
  const shown = (typeof name === 'string' && name.trim()) || username || `User ${String(person.user_id)}`;
  return `${String(shown)}${username && shown !== username ? ` · ${String(username)}` : ''}${email ? ` (${String(email)})` : ''}`;
}

export function PersonSelect({
  profileId,
  valueField,
  offered = [],
  value,
  onChange,
  ...select
}: {
  profileId: string;
  valueField: 'user_id' | 'email' | 'username';
  /** People offered besides the directory's answer (those a policy names), as directory records. */
  offered?: readonly ResourceRecord[];
  value: string | null;
  onChange(value: string | null): void;
} & Omit<
  SelectProps,
  'data' | 'value' | 'onChange' | 'searchable' | 'searchValue' | 'onSearchChange' | 'filter' | 'nothingFoundMessage'
>) {
  const [search, setSearch] = useState('');
  // The chosen person stays an option while the box shows their name (the search then finds no one else).
  const [chosen, setChosen] = useState<Option | null>(null);
  const [debounced] = useDebouncedValue(search === chosen?.label ? '' : search.trim(), 250);
  const directory = useCall('resources.list', {
    profileId,
    kind: 'users',
    pageSize: 20,
    ...(debounced && { search: debounced }),
  });
  const options = useMemo(() => {
    const byValue = new Map<string, string>();
    for (const person of [...offered, ...(directory.data?.records ?? [])]) {
      const key = person[valueField];
      if (key !== undefined && key !== null && key !== '') byValue.set(String(key), personLabel(person));
    }
    if (chosen && !byValue.has(chosen.value)) byValue.set(chosen.value, chosen.label);
    return [...byValue].map(([key, label]) => ({ value: key, label }));
  }, [offered, directory.data, chosen, valueField]);
  return (
    <Select
      {...select}
      data={options}
      value={value}
      onChange={(next, option) => {
        setChosen(next === null ? null : option);
        onChange(next);
      }}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      // The directory's search already chose the options (by name, username or email).
      filter={({ options: shown }) => shown}
      nothingFoundMessage={
        directory.isError
          ? 'The people could not be read'
          : directory.isFetching
            ? 'Looking…'
            : 'No one on this tenant matches'
      }
    />
  );
}
