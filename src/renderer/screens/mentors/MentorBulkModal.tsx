/**
 * "Change settings…" for several mentors: pick settings and their values (the kit's inputs for those fields), review
 * each mentor's before and after (mentors.bulkPreview, nothing sent), then apply as one job (the Jobs screen follows
 * it; each mentor's change lands in its history, where it can be reverted).
 */
import { Alert, Badge, Button, Group, Modal, MultiSelect, ScrollArea, Stack, Table, Text } from '@mantine/core';
import { useMemo, useState, type FormEvent } from 'react';
import type { MentorBulkPreviewRow } from '../../../shared/contract';
import { MENTOR_SETTINGS_FIELDS, MENTOR_SETTINGS_GROUPS, RESOURCES } from '../../../shared/resources';
import { FormFooter } from '../../components/FormFooter';
import { WarningIcon } from '../../components/icons';
import { notifySuccess } from '../../components/notify';
import { formatCount } from '../../lib/format';
import { useMutationCall } from '../../queries/useCall';
import { FieldInput } from '../../resources/fields/FieldInput';
import { useResourceForm } from '../../resources/fields/useResourceForm';
import { bulkFieldsOf } from '../../resources/BulkChangeModal';
import { pickedValues } from './bulkValues';

const declaration = RESOURCES['mentor-settings'];
const FIELDS = bulkFieldsOf(declaration);
const FIELD_CHOICES = MENTOR_SETTINGS_GROUPS.map((group) => ({
  group,
  items: MENTOR_SETTINGS_FIELDS.filter((f) => f.group === group && FIELDS.some((g) => g.name === f.name)).map((f) => ({
    value: f.name,
    label: f.label,
  })),
})).filter((group) => group.items.length);

/** A setting's value in a line: on/off, text cut short, lists and objects as JSON, nothing as "(empty)". */
export function shownValue(value: unknown): string {
  if (value === null || value === undefined || value === '') return '(empty)';
  if (typeof value === 'boolean') return value ? 'On' : 'Off';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}

export interface BulkTarget {
  profileId: string;
  mentors: { uniqueId: string; name: string }[];
}

export function MentorBulkModal({ target, onClose }: { target: BulkTarget | null; onClose(): void }) {
  const what = target
    ? `${formatCount(target.mentors.length)} ${target.mentors.length === 1 ? 'mentor' : 'mentors'}`
    : '';
  return (
    <Modal opened={!!target} onClose={onClose} title={`Change settings of ${what}`} centered size="xl">
      {/* A new selection starts again: nothing typed for other mentors is kept. */}
      {target && (
        <BulkForm key={target.mentors.map((m) => m.uniqueId).join()} target={target} what={what} onClose={onClose} />
      )}
    </Modal>
  );
}

function BulkForm({ target, what, onClose }: { target: BulkTarget; what: string; onClose(): void }) {
  const [picked, setPicked] = useState<string[]>([]);
  const fields = useMemo(() => FIELDS.filter((f) => picked.includes(f.name)), [picked]);
  const { form, ruleOf, formatOf, bodyOf, showError, blankAllowed } = useResourceForm({
    declaration,
    operation: declaration.operations.update,
    mode: 'update',
    fields: FIELDS,
    record: null,
  });
  const [error, setError] = useState<string | null>(null);
  const [review, setReview] = useState<{ values: Record<string, unknown>; rows: MentorBulkPreviewRow[] } | null>(null);
  const preview = useMutationCall('mentors.bulkPreview');
  const apply = useMutationCall('mentors.bulkSet');
  const mentors = target.mentors.map((m) => m.uniqueId);

  function toReview(values: Parameters<typeof bodyOf>[0], event?: FormEvent<HTMLFormElement>) {
    setError(null);
    if (!picked.length) {
      setError('Pick at least one setting to change.');
      return;
    }
    const { values: chosen, blank } = pickedValues(picked, bodyOf(values, false), blankAllowed);
    if (blank.length) {
      for (const name of blank) form.setFieldError(name, 'Give the value every mentor gets');
      // The keyboard goes to the first one to fill in.
      (event?.currentTarget as HTMLFormElement | undefined)
        ?.querySelector<HTMLElement>(`[data-field="${blank[0]}"] :is(input, textarea, [role="combobox"])`)
        ?.focus();
      return;
    }
    preview.mutate(
      { profileId: target.profileId, mentors, values: chosen },
      {
        onSuccess: ({ mentors: rows }) => setReview({ values: chosen, rows }),
        onError: (failure) => setError(showError(failure)),
      },
    );
  }

  function start() {
    if (!review) return;
    setError(null);
    apply.mutate(
      { profileId: target.profileId, mentors, values: review.values },
      {
        onSuccess: ({ job, resumed }) => {
          onClose();
          notifySuccess(
            `Change settings of ${what}`,
            job.state === 'waiting'
              ? 'The tenant is not answering: the job waits in Jobs and goes on when it answers.'
              : `${resumed ? 'The unfinished job for this change goes on' : 'Running as a job'}: Jobs shows what became of each mentor. Each change is in the mentor's history.`,
          );
        },
        onError: (failure) => setError(failure instanceof Error ? failure.message : String(failure)),
      },
    );
  }

  if (review) {
    const changing = review.rows.filter((row) => row.changes.length).length;
    const unreadable = review.rows.filter((row) => row.error).length;
    return (
      <Stack gap="md">
        <Text size="sm">
          <strong>{formatCount(changing)}</strong> {changing === 1 ? 'mentor changes' : 'mentors change'},{' '}
          {formatCount(review.rows.length - changing - unreadable)} already set
          {unreadable ? `, ${formatCount(unreadable)} could not be read` : ''}. Nothing has been sent yet.
        </Text>
        <ScrollArea.Autosize mah="calc(100vh - 320px)" type="auto">
          <Table verticalSpacing="xs" aria-label="Changes by mentor" data-testid="bulk-review">
            <Table.Thead>
              <Table.Tr>
                <Table.Th w="30%">Mentor</Table.Th>
                <Table.Th>Before → after</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {review.rows.map((row) => (
                <Table.Tr key={row.mentor} data-testid={`bulk-review-${row.name}`}>
                  <Table.Td>
                    <Text size="sm" fw={500} style={{ wordBreak: 'break-word' }}>
                      {row.name}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    {row.error ? (
                      <Text size="sm" c="red">
                        {row.error}
                      </Text>
                    ) : row.changes.length === 0 ? (
                      <Badge variant="light" color="gray" radius="sm">
                        Already set
                      </Badge>
                    ) : (
                      <Stack gap={2}>
                        {row.changes.map((change) => (
                          <Text key={change.field} size="sm" style={{ wordBreak: 'break-word' }}>
                            {change.label}:{' '}
                            <Text span c="dimmed" td="line-through" inherit>
                              {shownValue(change.before)}
                            </Text>{' '}
                            →{' '}
                            {change.after === null ? (
                              <strong>will be cleared</strong>
                            ) : (
                              <strong>{shownValue(change.after)}</strong>
                            )}
                          </Text>
                        ))}
                      </Stack>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea.Autosize>
        {error && (
          <Alert color="red" title="Not started" icon={<WarningIcon />}>
            {error}
          </Alert>
        )}
        <Group justify="space-between">
          <Button variant="default" onClick={() => setReview(null)} disabled={apply.isPending}>
            Back
          </Button>
          <Group gap="sm">
            <Button variant="default" onClick={onClose} disabled={apply.isPending}>
              Cancel
            </Button>
            <Button onClick={start} loading={apply.isPending} disabled={!changing} data-autofocus>
              Apply to {formatCount(changing)} {changing === 1 ? 'mentor' : 'mentors'}
            </Button>
          </Group>
        </Group>
      </Stack>
    );
  }

  return (
    <form onSubmit={form.onSubmit(toReview)} noValidate aria-label="Settings to change">
      <Stack gap="md">
        <MultiSelect
          label="Settings to change"
          description="Each mentor gets the values below; you review every mentor's change before anything is sent."
          placeholder={picked.length ? undefined : 'Pick settings'}
          data={FIELD_CHOICES}
          value={picked}
          onChange={setPicked}
          searchable
          clearable
        />
        {fields.map((field) => (
          <div key={field.name} data-field={field.name}>
            <FieldInput
              profileId={target.profileId}
              field={field}
              form={form}
              rule={ruleOf(field)}
              format={formatOf(field)}
              editing
            />
          </div>
        ))}
        <FormFooter error={error} saving={preview.isPending} submitLabel="Review changes" onCancel={onClose} />
      </Stack>
    </form>
  );
}
