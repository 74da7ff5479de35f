/**
 * Giving one person a seat of a licence from its page: the person picked by name, username or email from the
 * tenant's directory, the seat given by the seat kind's create (`…/assignment/` with the licence and their email),
 * and the platform's refusal (no seat free, no such account, a seat held already) shown as it answered.
 */
import { Alert, Group, Select, Stack } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import type { ResourceKind, SeatKind } from '../../../shared/resources';
import { errorMessage } from '../../bridge/errors';
import { WarningIcon } from '../../components/icons';
import { notifySuccess } from '../../components/notify';
import { useCall, useMutationCall } from '../../queries/useCall';
import { useWriteRefusal, WriteButton } from '../../resources/writeGate';

export function GiveSeat({
  profileId,
  licenseId,
  kind,
  onGiven,
}: {
  profileId: string;
  licenseId: number;
  kind: SeatKind;
  onGiven(): void;
}) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 250);
  const [email, setEmail] = useState<string | null>(null);
  const people = useCall(
    'resources.list',
    { profileId, kind: 'users', pageSize: 20, ...(debounced && { search: debounced }) },
    { enabled: debounced.length > 0 },
  );
  const give = useMutationCall('resources.create');
  const refusal = useWriteRefusal();
  const options = (people.data?.records ?? [])
    .filter((person) => typeof person.email === 'string' && person.email)
    .map((person) => {
      const name = typeof person.name === 'string' && person.name.trim() ? person.name : String(person.username);
      return { value: String(person.email), label: `${name} · ${String(person.email)}` };
    });
  // The picked person stays an option while the search moves on.
  const data =
    email && !options.some((o) => o.value === email) ? [{ value: email, label: email }, ...options] : options;

  return (
    <Stack gap={4}>
      <Group gap="sm" wrap="wrap" align="flex-end">
        <Select
          label="Give one person a seat"
          placeholder="Name, username or email"
          data={data}
          value={email}
          onChange={(value) => {
            setEmail(value);
            give.reset();
          }}
          searchable
          searchValue={search}
          onSearchChange={setSearch}
          filter={({ options: all }) => all}
          nothingFoundMessage={
            !debounced
              ? 'Type a name, username or email'
              : people.isError
                ? 'The people could not be read'
                : people.isFetching
                  ? 'Looking…'
                  : 'No one on this tenant matches'
          }
          w={320}
          data-testid="seat-person"
        />
        <WriteButton
          refusal={refusal}
          variant="default"
          disabled={!email}
          loading={give.isPending}
          onClick={() => {
            if (!email) return;
            give.mutate(
              { profileId, kind: kind as ResourceKind, values: { license_id: licenseId, email } },
              {
                onSuccess: () => {
                  notifySuccess('Seat given', `${email} holds a seat`);
                  setEmail(null);
                  setSearch('');
                  onGiven();
                },
              },
            );
          }}
        >
          Give a seat
        </WriteButton>
      </Group>
      {give.isError && (
        <Alert color="red" icon={<WarningIcon />} title="No seat given" data-testid="seat-refused">
          {errorMessage(give.error)}
        </Alert>
      )}
    </Stack>
  );
}
