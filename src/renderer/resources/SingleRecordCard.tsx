/**
 * A single-record kind (the tenant's metadata, branding, site config, billing status) as a settings card: every
 * field as the platform answered it, as of when, offline from the saved copy, and an edit form that asks before
 * dropping unsaved changes. Read-only kinds have no edit.
 */
import { Code, Group, Modal, Paper, SimpleGrid, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { ResourceRecord } from '../../shared/contract';
import { isWritable, type ResourceDeclaration, type ResourceKind } from '../../shared/resources';
import { useBridge } from '../bridge/BridgeContext';
import { FormFooter } from '../components/FormFooter';
import { FreshnessNote, OfflineBanner } from '../components/FreshnessBar';
import { SectionLoadError } from '../components/SectionReach';
import { formatDateTime } from '../lib/format';
import { useCall, useCallKey, useMutationCall } from '../queries/useCall';
import { FieldInput } from './fields/FieldInput';
import { useDiscardGuard } from './fields/DiscardGuard';
import { ImagePreview } from './fields/ImageField';
import { useResourceForm } from './fields/useResourceForm';
import type { FormValues } from './fields/values';
import { fieldLabel } from './naming';
import { useWriteRefusal, WriteButton } from './writeGate';

type Declared = ResourceDeclaration & { kind: ResourceKind };

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

function labelOf(declaration: ResourceDeclaration, field: string): string {
  return (
    declaration.fields.find((f) => f.name === field)?.label ??
    declaration.columns.find((c) => c.field === field)?.label ??
    fieldLabel(field)
  );
}

type Flat = Record<string, string | number | boolean | null>;
const isFlat = (value: unknown): value is Flat =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  Object.values(value).every((entry) => entry === null || typeof entry !== 'object');

/** A scalar as people read it: a date formatted, yes/no, or its text. */
function scalarText(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'string' && DATE_TIME.test(value)) return formatDateTime(value);
  return String(value);
}

/** A list of flat records (a billing answer's subscriptions): a table, one column per field any of them has. */
function RecordsTable({ label, rows }: { label: string; rows: Flat[] }) {
  const fields = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  return (
    <Table.ScrollContainer minWidth={320}>
      <Table withTableBorder verticalSpacing={4} aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            {fields.map((field) => (
              <Table.Th key={field} style={{ whiteSpace: 'nowrap' }}>
                {fieldLabel(field)}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row, index) => (
            <Table.Tr key={index}>
              {fields.map((field) => (
                <Table.Td key={field}>{scalarText(row[field])}</Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/**
 * One value as people read it: an image, a date, yes/no, a list of flat records as a table, other JSON laid out
 * (free-form, as its editor shows it), or its text.
 */
function Value({ declaration, field, value }: { declaration: ResourceDeclaration; field: string; value: unknown }) {
  const declared = declaration.fields.find((f) => f.name === field);
  if (declared?.input === 'image') {
    return <ImagePreview value={value} label={labelOf(declaration, field)} size={56} dark={declared.darkPreview} />;
  }
  if (value === null || value === undefined || value === '') {
    return (
      <Text size="sm" c="dimmed">
        Not set
      </Text>
    );
  }
  if (Array.isArray(value) && value.length > 0 && value.every(isFlat)) {
    return <RecordsTable label={labelOf(declaration, field)} rows={value} />;
  }
  if (typeof value === 'object') {
    const text = JSON.stringify(value, null, 2);
    return (
      <Code block style={{ maxHeight: 200, overflow: 'auto', whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
        {text}
      </Code>
    );
  }
  if (typeof value === 'boolean') return <Text size="sm">{value ? 'Yes' : 'No'}</Text>;
  if (typeof value === 'string' && DATE_TIME.test(value)) return <Text size="sm">{formatDateTime(value)}</Text>;
  return (
    <Text size="sm" style={{ wordBreak: 'break-word' }}>
      {String(value)}
    </Text>
  );
}

export function SingleRecordCard({
  profileId,
  declaration,
  recordKey,
}: {
  profileId: string;
  declaration: Declared;
  /** For a kind kept per parent (`keyedBy`: a mentor's memory settings), the parent it shows. */
  recordKey?: string;
}) {
  const input = { profileId, kind: declaration.kind, ...(recordKey !== undefined && { key: recordKey }) };
  const query = useCall('resources.getSingle', input);
  const bridge = useBridge();
  const queryClient = useQueryClient();
  const keyOf = useCallKey();
  const [refreshing, setRefreshing] = useState(false);
  const [editing, setEditing] = useState(false);
  const writeRefusal = useWriteRefusal(query.data?.freshness);
  const writable = isWritable(declaration);
  const record = query.data?.record;

  async function refresh() {
    setRefreshing(true);
    try {
      const fresh = await bridge.call('resources.getSingle', { ...input, refresh: true });
      queryClient.setQueryData(keyOf('resources.getSingle', input), fresh);
    } catch {
      await query.refetch();
    } finally {
      setRefreshing(false);
    }
  }

  // Declared fields first, in their order, then the rest as the platform answered them.
  const shown = record
    ? [
        ...declaration.columns.map((c) => c.field),
        ...declaration.fields.map((f) => f.name),
        ...Object.keys(record).filter(
          (f) => !declaration.fields.some((d) => d.name === f) && !declaration.columns.some((c) => c.field === f),
        ),
      ].filter(
        (field, index, all) =>
          all.indexOf(field) === index &&
          // A field of its own (a logo) shows even when none is uploaded; a form-only field (site config's
          // field_key) is not a field of the record.
          (field in record || declaration.fields.some((d) => d.name === field && d.own)) &&
          // The parent's own id (a linked course's mentor, on that mentor's page) tells nobody anything.
          !(
            recordKey !== undefined &&
            record[field] === recordKey &&
            !declaration.fields.some((d) => d.name === field)
          ),
      )
    : [];
  const images = declaration.fields.length > 0 && declaration.fields.every((f) => f.input === 'image');

  return (
    <Stack gap="md" data-testid={`single-${declaration.kind}`}>
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
        <div style={{ flex: '1 1 320px', minWidth: 0 }}>
          <Title order={2} size="h4">
            {declaration.label}
          </Title>
          <Text size="sm" c="dimmed">
            {declaration.description}
            {!writable && ' Read-only: the platform offers no call that changes it.'}
          </Text>
          {declaration.note && (
            <Text size="sm" c="dimmed" data-testid="resource-note">
              {declaration.note}
            </Text>
          )}
        </div>
        <Group gap="sm" wrap="nowrap">
          <FreshnessNote
            freshness={query.data?.freshness}
            refreshing={refreshing || query.isFetching}
            onRefresh={() => void refresh()}
            what={declaration.plural ?? declaration.label}
          />
          {writable && (
            <WriteButton disabled={!record} refusal={writeRefusal} onClick={() => setEditing(true)}>
              Edit
            </WriteButton>
          )}
        </Group>
      </Group>
      <OfflineBanner freshness={query.data?.freshness} />
      <Paper withBorder radius="md" p="md">
        {query.isPending && (
          <Stack gap="xs" aria-busy="true" aria-label={`Loading ${declaration.label}`}>
            {[0, 1, 2].map((row) => (
              <Skeleton key={row} height={28} radius="sm" />
            ))}
          </Stack>
        )}
        {query.isError && (
          // Inside a page of sections (SectionReach), an unreachable tenant is said once for all of them.
          <SectionLoadError
            section={`single-${declaration.kind}`}
            title={`${declaration.label} could not be loaded`}
            error={query.error}
            onRetry={() => void query.refetch()}
          />
        )}
        {record && shown.length === 0 && (
          <Text size="sm" c="dimmed">
            Nothing is set yet.
          </Text>
        )}
        {record && shown.length > 0 && (
          <SimpleGrid cols={images ? { base: 2, md: 4 } : 1} spacing="md" verticalSpacing="md">
            {shown.map((field) => (
              <Stack key={field} gap={4} data-field={field}>
                <Text size="xs" c="dimmed" fw={500}>
                  {labelOf(declaration, field)}
                </Text>
                <Value declaration={declaration} field={field} value={record[field]} />
              </Stack>
            ))}
          </SimpleGrid>
        )}
      </Paper>
      {writable && record && (
        <SingleRecordEditor
          profileId={profileId}
          recordKey={recordKey}
          declaration={declaration}
          record={record}
          opened={editing}
          onClose={() => setEditing(false)}
        />
      )}
    </Stack>
  );
}

/** The edit form in a dialog: Escape, the close button or Cancel with changes made ask before dropping them. */
function SingleRecordEditor({
  profileId,
  recordKey,
  declaration,
  record,
  opened,
  onClose,
}: {
  profileId: string;
  recordKey: string | undefined;
  declaration: Declared;
  record: ResourceRecord;
  opened: boolean;
  onClose(): void;
}) {
  const { setDirty, close, leave, prompt } = useDiscardGuard(onClose);
  return (
    <Modal opened={opened} onClose={leave} title={`Edit ${declaration.singular}`} centered size="lg">
      {prompt}
      {opened && (
        <SingleRecordForm
          profileId={profileId}
          recordKey={recordKey}
          declaration={declaration}
          record={record}
          onDirty={setDirty}
          onCancel={leave}
          onSaved={close}
        />
      )}
    </Modal>
  );
}

function SingleRecordForm({
  profileId,
  recordKey,
  declaration,
  record,
  onDirty,
  onCancel,
  onSaved,
}: {
  profileId: string;
  recordKey: string | undefined;
  declaration: Declared;
  record: ResourceRecord;
  onDirty(dirty: boolean): void;
  onCancel(): void;
  onSaved(): void;
}) {
  const fields = declaration.fields;
  const { form, ruleOf, formatOf, bodyOf, showError } = useResourceForm({
    declaration,
    operation: declaration.operations.update ?? null,
    mode: 'update',
    fields,
    record,
    onDirty,
  });
  const [formError, setFormError] = useState<string | null>(null);
  const save = useMutationCall('resources.updateSingle');

  function submit(values: FormValues) {
    setFormError(null);
    const changed = bodyOf(values, true);
    if (Object.keys(changed).length === 0) {
      setFormError('Nothing changed.');
      return;
    }
    save.mutate(
      { profileId, kind: declaration.kind, ...(recordKey !== undefined && { key: recordKey }), values: changed },
      {
        onSuccess: onSaved,
        onError: (error) => setFormError(showError(error)),
      },
    );
  }

  return (
    <form onSubmit={form.onSubmit(submit)} noValidate>
      <Stack gap="md">
        {fields.map((field, index) => (
          <FieldInput
            key={field.name}
            profileId={profileId}
            field={field}
            form={form}
            rule={ruleOf(field)}
            format={formatOf(field)}
            current={record[field.name]}
            autoFocus={index === 0}
          />
        ))}
        <FormFooter error={formError} saving={save.isPending} submitLabel="Save" onCancel={onCancel} />
      </Stack>
    </form>
  );
}
