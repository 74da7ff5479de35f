/**
 * A value the platform nests inside a record (a program's `data` and `metadata`, its `course_list`), as a person
 * reads it in a record's panel: an object as label/value pairs, a list of objects as a list in order, each naming
 * the record of another kind it points to (a course by its name, linked to its page) — never as JSON. Pairs that
 * repeat a field the record already shows at its top level are left out.
 */
import { Anchor, List, Table, Text } from '@mantine/core';
import { useMemo } from 'react';
import type { ResourceRecord } from '../../shared/contract';
import { RESOURCES, type ResourceKind } from '../../shared/resources';
import { useCall } from '../queries/useCall';
import { useActiveTenant } from '../tenants/tenantContext';
import { recordHref } from './CommandPalette';
import { fieldLabel, titleOf } from './naming';
import { readableValue } from './readable';

type Plain = Record<string, unknown>;
const isObject = (value: unknown): value is Plain => !!value && typeof value === 'object' && !Array.isArray(value);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Whether the panel shows `value` here rather than as text: an object, or a list holding objects, with no name. */
export function isNested(value: unknown): boolean {
  return readableValue(value).structured && (isObject(value) || (Array.isArray(value) && value.every(isObject)));
}

/** The object's pairs worth showing: none that repeats the record's own field of the same name. */
export function newPairs(value: Plain, record: ResourceRecord): [string, unknown][] {
  return Object.entries(value).filter(([key, inner]) => !(key in record && same(record[key], inner)));
}

/** What a list's items name: a record of `kind` by the item's `key` (a pathway's items: courses by `item_id`). */
export type Listed = { kind: string; key: string };

/**
 * A declared list field's value as its items: the platform answers some as JSON text (a pathway's `path`). Anything
 * that is not a list of objects is left as it is.
 */
export function listedItems(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) && parsed.every(isObject) ? parsed : value;
  } catch {
    return value;
  }
}

/**
 * The kind an item's key points to: the field's declared one, else a kind whose own id field is that key
 * (`course_id` → courses). Only distinctive id fields count (`id` names nothing in particular).
 */
function referredKind(items: readonly Plain[], listed?: Listed): { kind: ResourceKind; key: string } | null {
  if (listed && listed.kind in RESOURCES) return { kind: listed.kind as ResourceKind, key: listed.key };
  for (const declaration of Object.values(RESOURCES)) {
    const key = declaration.idField;
    if (key !== 'id' && key.endsWith('_id') && items.some((item) => typeof item[key] === 'string')) {
      return { kind: declaration.kind as ResourceKind, key };
    }
  }
  return null;
}

const REFERRED_PAGE = 500;

export function NestedValue({ value, record, listed }: { value: unknown; record: ResourceRecord; listed?: Listed }) {
  if (isObject(value)) return <Pairs pairs={newPairs(value, record)} />;
  return <NestedList items={(value as unknown[]).filter(isObject)} listed={listed} />;
}

function Pairs({ pairs }: { pairs: [string, unknown][] }) {
  return (
    <Table withRowBorders={false} verticalSpacing={2} horizontalSpacing={0} fz="sm">
      <Table.Tbody>
        {pairs.map(([key, inner]) => (
          <Table.Tr key={key}>
            <Table.Td c="dimmed" w="40%" pr="sm" style={{ verticalAlign: 'top' }}>
              {fieldLabel(key)}
            </Table.Td>
            <Table.Td style={{ overflowWrap: 'anywhere' }}>{inline(inner)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** A value inside a pair or a list item, on one line: yes/no for booleans, nested objects as their own pairs. */
function inline(value: unknown): string {
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (isObject(value)) {
    return Object.entries(value)
      .map(([key, inner]) => `${fieldLabel(key)}: ${inline(inner)}`)
      .join(' · ');
  }
  return readableValue(value).text;
}

function NestedList({ items, listed }: { items: Plain[]; listed?: Listed | undefined }) {
  const profileId = useActiveTenant().id ?? undefined;
  const referred = useMemo(() => referredKind(items, listed), [items, listed]);
  const records = useCall(
    'resources.list',
    { profileId, kind: referred?.kind ?? 'courses', pageSize: REFERRED_PAGE },
    { enabled: !!referred && !!profileId },
  );
  const names = useMemo(() => {
    if (!referred) return new Map<string, string>();
    const declaration = RESOURCES[referred.kind];
    return new Map(
      (records.data?.records ?? []).map((found) => [String(found[declaration.idField]), titleOf(declaration, found)]),
    );
  }, [referred, records.data]);
  // In the platform's order when it gives one (a program's courses by `position`).
  const ordered = items.every((item) => typeof item.position === 'number')
    ? [...items].sort((a, b) => Number(a.position) - Number(b.position))
    : items;
  return (
    <List type={ordered === items ? 'unordered' : 'ordered'} size="sm" spacing={2}>
      {ordered.map((item, i) => {
        const rest = Object.entries(item).filter(([key]) => key !== 'position' && (!referred || key !== referred.key));
        const id = referred && typeof item[referred.key] === 'string' ? String(item[referred.key]) : null;
        return (
          <List.Item key={i}>
            {id !== null && referred ? (
              <Anchor href={recordHref(RESOURCES[referred.kind], id)} size="sm" title={id}>
                {names.get(id) ?? id}
              </Anchor>
            ) : null}
            {rest.length > 0 && (
              <Text span size="sm" c={id !== null ? 'dimmed' : undefined}>
                {id !== null ? ' · ' : ''}
                {inline(Object.fromEntries(rest))}
              </Text>
            )}
          </List.Item>
        );
      })}
    </List>
  );
}
