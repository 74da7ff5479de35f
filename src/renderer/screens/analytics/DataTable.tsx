import { ScrollArea, Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import type { Column, TableRow } from '../../../shared/contract';
import { formatCell } from './format';

/** A chart's data as a table (what "view as table" shows and "export CSV" writes). */
export function DataTable({ columns, rows, caption }: { columns: Column[]; rows: TableRow[]; caption: string }) {
  if (!rows.length) return <Text c="dimmed">No rows.</Text>;
  return (
    <ScrollArea.Autosize mah={360} type="auto">
      <Table striped highlightOnHover withTableBorder stickyHeader fz="sm" aria-label={caption}>
        <Table.Thead>
          <Table.Tr>
            {columns.map((c) => (
              <Table.Th key={c.key}>{c.label}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row, i) => (
            <Table.Tr key={i}>
              {columns.map((c) => (
                <Table.Td key={c.key} style={{ fontVariantNumeric: 'tabular-nums' }}>
                  {formatCell(row[c.key])}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollArea.Autosize>
  );
}

/** A cell naming something (a course, a learner), with its id beside the name in small grey letters. */
export function NameCell({ name, id }: { name: ReactNode; id: string }) {
  return (
    <Table.Td>
      {name}{' '}
      <Text span size="xs" c="dimmed">
        {id}
      </Text>
    </Table.Td>
  );
}
