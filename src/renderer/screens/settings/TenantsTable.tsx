import { Table } from '@mantine/core';
import type { Profile } from '../../../shared/contract';
import { TenantRow } from './TenantRow';

interface TenantsTableProps {
  profiles: Profile[];
  onRemove(profile: Profile): void;
}

export function TenantsTable({ profiles, onRemove }: TenantsTableProps) {
  return (
    <Table.ScrollContainer minWidth={820}>
      <Table verticalSpacing="sm" highlightOnHover aria-label="Tenants">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>Base URL</Table.Th>
            <Table.Th>Org / username</Table.Th>
            <Table.Th>Auth / key</Table.Th>
            <Table.Th style={{ textAlign: 'right' }}>Actions</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {profiles.map((profile) => (
            <TenantRow key={profile.id} profile={profile} onRemove={onRemove} />
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
