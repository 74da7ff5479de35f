import { WriteButton } from './writeGate';
import { Button, Code, CopyButton, Drawer, Group, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import type { ResourceRecord } from '../../shared/contract';
import type { ResourceDeclaration } from '../../shared/resources';
import { formatDateTime } from '../lib/format';
import { capitalized, labelOf as fieldLabelOf, titleOf } from './naming';
import { isNested, listedItems, NestedValue, newPairs } from './NestedValue';
import { readableValue, shownValue } from './readable';
import { GRANT_FIELDS, GrantDetails } from './GrantView';

interface RecordDrawerProps {
  declaration: ResourceDeclaration;
  record: ResourceRecord | null;
  onClose(): void;
  /** Offered when the kind can be updated. */
  onEdit?(record: ResourceRecord): void;
  /** Why Edit is off (the tenant cannot be reached), or null. */
  editRefusal?: string | null;
  /** Shown after the fields: the records that refer to this one. */
  related?: ReactNode;
  /** A value as the list shows it (an option's label, a mentor's name); by default the option's label. */
  show?(field: string, value: unknown): unknown;
}

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/**
 * The fields without those the platform repeats under another name (a program's `slug` and `program_id`, its `org`
 * and its `institution` named the same): a field the list does not show whose text — a word, not a number, date or
 * yes/no — another field already said is left out.
 */
function withoutRepeats(record: ResourceRecord, fields: string[], columns: readonly string[]): string[] {
  const said = new Set<string>();
  return fields.filter((field) => {
    const value = record[field];
    const { text, structured } = readableValue(value);
    const word = !structured && typeof value !== 'number' && typeof value !== 'boolean' && !DATE_TIME.test(text);
    if (!word || text.length < 3) return true;
    if (said.has(text) && !columns.includes(field)) return false;
    said.add(text);
    return true;
  });
}

/** A value the platform leaves empty (a pathway's `data`: null): a field the list does not show is left out. */
const saysNothing = (value: unknown) =>
  value === null || value === undefined || (typeof value === 'object' && Object.keys(value as object).length === 0);

/** Every field of one record as the platform answered it; long values (keys, JWKs) with a copy button. */
export function RecordDrawer({
  declaration,
  record,
  onClose,
  onEdit,
  editRefusal = null,
  related,
  show,
}: RecordDrawerProps) {
  const labelOf = (field: string) => declaration.details?.labels?.[field] ?? fieldLabelOf(declaration, field);
  const listedBy = (field: string) => declaration.fields.find((declared) => declared.name === field)?.lists;
  const name = record && titleOf(declaration, record);
  const heading = name && readableValue(show ? show(declaration.columns[0]!.field, name) : name).text;
  // The list's columns first, in their order (the name leads), then the rest as the platform answered them, but for
  // the fields naming the tenant itself (a course's `org`): the same on every record of the list, so only noise here.
  // A grant (a policy's role and whom it is granted to) is shown whole in its column's place.
  const grantField = declaration.columns.find((column) => column.format === 'grant')?.field;
  const shownElsewhere = new Set<string>([
    ...(grantField ? GRANT_FIELDS : []),
    ...(declaration.details?.hidden ?? []),
    ...Object.entries(declaration.tenant ?? {})
      .filter(([, value]) => value !== 'none')
      .map(([field]) => field),
  ]);
  const columnFields = declaration.columns.map((column) => column.field);
  const fields = record
    ? withoutRepeats(
        record,
        [
          ...columnFields.filter((field) => field in record),
          ...Object.keys(record).filter(
            (field) => !columnFields.includes(field) && !shownElsewhere.has(field) && !saysNothing(record[field]),
          ),
        ],
        columnFields,
      )
    : [];
  return (
    <Drawer
      opened={record !== null}
      onClose={onClose}
      position="right"
      size="lg"
      // The record's name as its list shows it (a review's course by name), the kind above it in small type.
      title={
        record ? (
          <>
            <Text component="span" display="block" size="xs" c="dimmed" fw={500}>
              {capitalized(declaration.singular)}
            </Text>{' '}
            <span>{heading}</span>
          </>
        ) : (
          ''
        )
      }
      // As the theme does for modals: a title that reads as one, and a close button with a name.
      styles={{ title: { fontWeight: 650, fontSize: 'var(--mantine-font-size-lg)' } }}
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {record && (
        <Stack gap="md">
          {fields.map((field) => {
            if (field === grantField) return <GrantDetails key={field} record={record} />;
            const listed = listedBy(field);
            const value = listed
              ? listedItems(record[field])
              : show
                ? show(field, record[field])
                : shownValue(declaration, field, record[field]);
            const nested = isNested(value);
            // A nested object whose every pair the record already shows says nothing new.
            if (nested && !Array.isArray(value) && !newPairs(value as Record<string, unknown>, record).length)
              return null;
            const { text } = readableValue(value);
            const long = text.length > 60 || text.includes('\n');
            return (
              <Stack key={field} gap={4}>
                <Text size="xs" c="dimmed">
                  {labelOf(field)}
                </Text>
                {nested ? (
                  <NestedValue value={value} record={record} {...(listed && { listed })} />
                ) : long ? (
                  <Group gap="sm" align="flex-start" wrap="nowrap">
                    <Code
                      block
                      style={{
                        flex: 1,
                        maxHeight: 240,
                        overflow: 'auto',
                        whiteSpace: 'pre-wrap',
                        wordBreak: 'break-all',
                      }}
                    >
                      {text}
                    </Code>
                    <CopyButton value={text}>
                      {({ copied, copy }) => (
                        <Button
                          size="xs"
                          variant={copied ? 'light' : 'default'}
                          onClick={copy}
                          aria-label={`Copy ${labelOf(field)}`}
                        >
                          {copied ? 'Copied' : 'Copy'}
                        </Button>
                      )}
                    </CopyButton>
                  </Group>
                ) : (
                  <Text size="sm">
                    {typeof value === 'string' && DATE_TIME.test(value)
                      ? value.startsWith('9999-')
                        ? 'Never'
                        : formatDateTime(value)
                      : typeof value === 'boolean'
                        ? value
                          ? 'Yes'
                          : 'No'
                        : text}
                  </Text>
                )}
              </Stack>
            );
          })}
          {related}
          {onEdit && (
            <Group justify="flex-end">
              <WriteButton variant="default" refusal={editRefusal} onClick={() => onEdit(record)}>
                Edit
              </WriteButton>
            </Group>
          )}
        </Stack>
      )}
    </Drawer>
  );
}
