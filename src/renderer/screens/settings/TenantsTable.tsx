import { Table } from '@mantine/core';
import type { Profile } from '../../../shared/contract';
import { TenantRow } from './TenantRow';

interface TenantsTableProps {
  profiles: Profile[];
  onRemove(profile: Profile): void;
}

export function TenantsTable({ profiles, onRemove }: TenantsTableProps) {
  return (
    <Table.ScrollContainer minWidth={600}>
      {/* Fixed columns: a long name wraps and a long address is cut (in full on hover), the actions stay whole. */}
      <Table verticalSpacing="sm" highlightOnHover aria-label="Tenants" layout="fixed">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w="30%">Name / key</Table.Th>
            <Table.Th>Connection</Table.Th>
            <Table.Th w={272} style={{ textAlign: 'right' }}>
              Actions
            </Table.Th>
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
