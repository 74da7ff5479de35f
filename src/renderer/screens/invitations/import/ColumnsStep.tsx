import { Alert, Badge, Button, Group, ScrollArea, Select, Stack, Table, Text } from '@mantine/core';
import {
  CSV_DELIMITERS,
  CSV_ENCODINGS,
  INVITE_FIELD_LABELS,
  INVITE_FIELDS,
  type CsvDelimiter,
  type CsvEncoding,
  type ImportDraft,
  type InviteField,
} from '../../../../shared/contract';
import { errorMessage } from '../../../bridge/errors';
import { useMutationCall } from '../../../queries/useCall';
import { updateWizard } from '../wizardStore';
import { WizardFooter } from '../../../components/csv-import/WizardFooter';
import { Notices } from '../../../components/csv-import/Notices';
import { DELIMITER_LABELS, ENCODING_LABELS, rowLabel } from '../../../components/csv-import/labels';

const IGNORE = 'ignore';
const NO_HEADER = 'none';

/** How the file is read: encoding, delimiter, which row names the columns, and which column fills which field. */
export function ColumnsStep({ draft }: { draft: ImportDraft }) {
  const configure = useMutationCall('invitations.importConfigure');
  const parse = useMutationCall('invitations.importParse');
  const change = (input: Omit<Parameters<typeof configure.mutate>[0], 'id'>) =>
    configure.mutate({ id: draft.id, ...input });
  const mapping = draft.columns.map((c) => c.field);
  const setField = (index: number, field: InviteField | null) => {
    // A field comes from one column: choosing it here clears it elsewhere.
    const next = mapping.map((f, i) => (i === index ? field : f === field ? null : f));
    change({ mapping: next });
  };
  const bodyStart = draft.headerRow === null ? 0 : draft.headerRow + 1;
  const hasEmail = mapping.includes('email');

  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed" mb={-8}>
        {draft.name}
        {draft.bom ? ' · UTF-8 with a byte order mark' : ''} · how it is read, and which column fills which field
      </Text>
      <Group gap="sm" align="flex-end" wrap="wrap">
        <Select
          label="Encoding"
          w={150}
          allowDeselect={false}
          value={draft.encoding}
          data={CSV_ENCODINGS.map((value) => ({ value, label: ENCODING_LABELS[value] }))}
          onChange={(value) => value && change({ encoding: value as CsvEncoding })}
        />
        <Select
          label="Delimiter"
          w={130}
          allowDeselect={false}
          value={draft.delimiter}
          data={CSV_DELIMITERS.map((value) => ({ value, label: DELIMITER_LABELS[value] }))}
          onChange={(value) => value && change({ delimiter: value as CsvDelimiter })}
        />
        <Select
          label="Header row"
          miw={260}
          style={{ flex: 1 }}
          allowDeselect={false}
          value={draft.headerRow === null ? NO_HEADER : String(draft.headerRow)}
          data={[
            { value: NO_HEADER, label: 'No header row (the file starts with people)' },
            ...draft.preview.slice(0, 20).map((row, index) => ({ value: String(index), label: rowLabel(row, index) })),
          ]}
          onChange={(value) => value && change({ headerRow: value === NO_HEADER ? null : Number(value) })}
        />
      </Group>
      <Notices notices={draft.notices} />
      {configure.isError && <Alert color="red">{errorMessage(configure.error)}</Alert>}
      <ScrollArea>
        <Table withTableBorder withColumnBorders aria-label="Column mapping">
          <Table.Thead>
            <Table.Tr>
              {draft.columns.map((column) => (
                <Table.Th key={column.index} miw={170}>
                  <Stack gap={4}>
                    <Group gap={4} wrap="nowrap">
                      <Text size="sm" fw={600} truncate>
                        {column.header}
                      </Text>
                      {column.remembered && (
                        <Badge size="xs" variant="light" title="As you chose before for this tenant">
                          Remembered
                        </Badge>
                      )}
                    </Group>
                    <Select
                      size="xs"
                      aria-label={`Field for column ${column.header}`}
                      allowDeselect={false}
                      value={column.field ?? IGNORE}
                      data={[
                        { value: IGNORE, label: 'Ignore' },
                        ...INVITE_FIELDS.map((field) => ({ value: field, label: INVITE_FIELD_LABELS[field] })),
                      ]}
                      onChange={(value) =>
                        setField(column.index, !value || value === IGNORE ? null : (value as InviteField))
                      }
                    />
                  </Stack>
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {draft.preview.slice(bodyStart, bodyStart + 8).map((row, r) => (
              <Table.Tr key={r}>
                {draft.columns.map((column) => (
                  <Table.Td key={column.index} c={column.field ? undefined : 'dimmed'}>
                    <Text size="sm" truncate maw={260}>
                      {row[column.index] ?? ''}
                    </Text>
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea>
      {parse.isError && <Alert color="red">{errorMessage(parse.error)}</Alert>}
      <WizardFooter>
        <Button variant="default" onClick={() => updateWizard({ step: 'file' })}>
          Back
        </Button>
        <Button
          disabled={!hasEmail || configure.isPending}
          loading={parse.isPending}
          onClick={() => parse.mutate({ id: draft.id }, { onSuccess: () => updateWizard({ step: 'target' }) })}
        >
          Next
        </Button>
      </WizardFooter>
    </Stack>
  );
}
