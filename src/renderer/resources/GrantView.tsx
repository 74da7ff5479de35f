import { Group, Stack, Text } from '@mantine/core';
import type { ResourceRecord } from '../../shared/contract';
import { grantDetail, grantOf, grantSummary, type Grantee } from '../../shared/resources';

/** The record fields a `grant` column shows (its own field is the role), so a record's panel shows them once. */
export const GRANT_FIELDS = ['users', 'groups'] as const;

/** A policy's grant on one line of a list: "Editors · 2 people, 1 group", every name and id in the tooltip. */
export function GrantCell({ record }: { record: ResourceRecord }) {
  const grant = grantOf(record);
  return (
    <Text
      size="sm"
      title={grantDetail(grant)}
      maw={300}
      style={{ whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }}
      data-testid="grant-cell"
    >
      {grantSummary(grant)}
    </Text>
  );
}

/** A name, its id after it in small type (and in its tooltip). */
function Named({ party, what }: { party: Grantee; what: string }) {
  return (
    <Group gap={6} wrap="nowrap" title={`${what} id ${party.id}`}>
      <Text size="sm">{party.name}</Text>
      <Text size="xs" c="dimmed">
        id {party.id}
      </Text>
    </Group>
  );
}

function Parties({ label, parties, what }: { label: string; parties: Grantee[]; what: string }) {
  return (
    <Stack gap={4} data-testid={`grant-${what.toLowerCase()}s`}>
      <Text size="xs" c="dimmed">
        {label} ({parties.length})
      </Text>
      {parties.length ? (
        parties.map((party) => <Named key={party.id} party={party} what={what} />)
      ) : (
        <Text size="sm">None</Text>
      )}
    </Stack>
  );
}

/** A policy's grant in full, in its panel: the role, then each person and group it is granted to. */
export function GrantDetails({ record }: { record: ResourceRecord }) {
  const grant = grantOf(record);
  return (
    <Stack gap="md" data-testid="grant-details">
      <Stack gap={4}>
        <Text size="xs" c="dimmed">
          Role
        </Text>
        {grant.role ? <Named party={grant.role} what="Role" /> : <Text size="sm">None</Text>}
      </Stack>
      <Parties label="People" parties={grant.people} what="User" />
      <Parties label="Groups" parties={grant.groups} what="Group" />
    </Stack>
  );
}
