import { Modal, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { pluralOf, type FieldDeclaration } from '../../shared/resources';
import { FormFooter } from '../components/FormFooter';
import { notifySuccess } from '../components/notify';
import { formatCount } from '../lib/format';
import { useMutationCall } from '../queries/useCall';
import { FieldInput } from './fields/FieldInput';
import { useResourceForm } from './fields/useResourceForm';
import { NamesList } from './ListTools';
import type { Declared } from './naming';

/**
 * The fields one value can be set on for many records at once: not a secret (the job's journal would keep it), not
 * an image or a field saved by calls of its own, not one fixed at creation.
 */
export const bulkFieldsOf = (declaration: Declared): FieldDeclaration[] =>
  declaration.operations.update && 'id' in declaration.operations.update
    ? declaration.fields.filter(
        (field) => !field.createOnly && !field.own && field.input !== 'secret' && field.input !== 'image',
      )
    : [];

/**
 * Sets one field to one value on every selected record, as one bulk job: the field's own input (the kit's
 * FieldInput, checked by the spec's rules), the platform's refusal of the value at the field.
 */
export function BulkChangeModal({
  profileId,
  declaration,
  selected,
  opened,
  onClose,
  onStarted,
}: {
  profileId: string;
  declaration: Declared;
  selected: { id: string; name: string }[];
  opened: boolean;
  onClose(): void;
  onStarted(): void;
}) {
  const fields = bulkFieldsOf(declaration);
  const [fieldName, setFieldName] = useState<string | null>(fields[0]?.name ?? null);
  const field = fields.find((f) => f.name === fieldName) ?? null;
  const what = `${formatCount(selected.length)} ${selected.length === 1 ? declaration.singular : pluralOf(declaration)}`;
  return (
    <Modal opened={opened} onClose={onClose} title={`Change ${what}`} centered size="lg">
      <Stack gap="md">
        <NamesList names={selected.map((record) => record.name)} />
        <Select
          label="Field"
          data={fields.map((f) => ({ value: f.name, label: f.label }))}
          value={fieldName}
          onChange={setFieldName}
          allowDeselect={false}
          data-autofocus
        />
        {field && (
          <ChangeForm
            // Another field is another form: what was typed for the last one is not sent for this one.
            key={field.name}
            profileId={profileId}
            declaration={declaration}
            field={field}
            ids={selected.map((record) => record.id)}
            what={what}
            onCancel={onClose}
            onStarted={onStarted}
          />
        )}
      </Stack>
    </Modal>
  );
}

function ChangeForm({
  profileId,
  declaration,
  field,
  ids,
  what,
  onCancel,
  onStarted,
}: {
  profileId: string;
  declaration: Declared;
  field: FieldDeclaration;
  ids: string[];
  what: string;
  onCancel(): void;
  onStarted(): void;
}) {
  const { form, ruleOf, formatOf, bodyOf, showError } = useResourceForm({
    declaration,
    operation: declaration.operations.update!,
    mode: 'update',
    fields: [field],
    record: null,
  });
  const [error, setError] = useState<string | null>(null);
  const bulk = useMutationCall('resources.bulk');
  function submit(values: Parameters<typeof bodyOf>[0]) {
    setError(null);
    // An empty box is no value (the form's own rule: an empty field is left out).
    const body = Object.fromEntries(
      Object.entries(bodyOf(values, false)).filter(([, value]) => value !== '' && value !== undefined),
    );
    if (!Object.keys(body).length) {
      form.setFieldError(field.name, `Give the value to set on ${what}`);
      return;
    }
    bulk.mutate(
      { profileId, kind: declaration.kind, action: 'update', ids, values: body },
      {
        onSuccess: (job) => {
          onStarted();
          notifySuccess(
            `Change ${what}`,
            job.state === 'waiting'
              ? 'The tenant is not answering: the job waits in Jobs and goes on when it answers.'
              : 'Running as a job: Jobs shows what became of each one (those already so are left unchanged).',
          );
        },
        onError: (failure) => setError(showError(failure)),
      },
    );
  }
  return (
    <form onSubmit={form.onSubmit(submit)} noValidate>
      <Stack gap="md">
        <FieldInput
          profileId={profileId}
          field={field}
          form={form}
          rule={ruleOf(field)}
          format={formatOf(field)}
          editing
        />
        <Text size="xs" c="dimmed">
          Every selected record gets this value; a record that already has it is left unchanged.
        </Text>
        <FormFooter error={error} saving={bulk.isPending} submitLabel={`Change ${what}`} onCancel={onCancel} />
      </Stack>
    </form>
  );
}
