import { Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { ResourceRecord } from '../../shared/contract';
import type { ResourceDeclaration, ResourceKind } from '../../shared/resources';
import { FormFooter } from '../components/FormFooter';
import { notifySuccess } from '../components/notify';
import { useCall, useMutationCall } from '../queries/useCall';
import { DescribedFieldInputs } from './DescribedFields';
import { FieldInput } from './fields/FieldInput';
import { useDiscardGuard } from './fields/DiscardGuard';
import { useResourceForm } from './fields/useResourceForm';
import type { FormValues } from './fields/values';
import { titleOf } from './naming';
import { useOptimisticList } from './optimistic';
import { recordIdOf, withoutSecrets } from '../../shared/resources';

export type FormTarget = { mode: 'create' } | { mode: 'update'; record: ResourceRecord };

interface ResourceFormModalProps {
  profileId: string;
  declaration: ResourceDeclaration & { kind: ResourceKind };
  target: FormTarget | null;
  onClose(): void;
  /** After a create: the record and what the platform answered once (a new token's key). */
  onCreated(record: ResourceRecord, revealed: Record<string, string>): void;
}

const title = (declaration: ResourceDeclaration, target: FormTarget) =>
  target.mode === 'create'
    ? `New ${declaration.singular}`
    : `Edit ${declaration.singular} "${titleOf(declaration, target.record)}"`;

/** A create or edit form built from the declaration's fields, checked with the spec's rules before it is sent. */
export function ResourceFormModal({ profileId, declaration, target, onClose, onCreated }: ResourceFormModalProps) {
  const { setDirty, close, leave, prompt } = useDiscardGuard(onClose);
  return (
    <Modal opened={target !== null} onClose={leave} title={target && title(declaration, target)} centered size="lg">
      {prompt}
      {target && (
        <ResourceForm
          key={target.mode === 'create' ? 'create' : recordIdOf(declaration, target.record)}
          profileId={profileId}
          declaration={declaration}
          target={target}
          onDirty={setDirty}
          onCancel={leave}
          onSaved={close}
          onCreated={(record, revealed) => {
            close();
            onCreated(record, revealed);
          }}
        />
      )}
    </Modal>
  );
}

function ResourceForm({
  profileId,
  declaration,
  target,
  onDirty,
  onCancel,
  onSaved,
  onCreated,
}: {
  profileId: string;
  declaration: ResourceDeclaration & { kind: ResourceKind };
  target: FormTarget;
  onDirty(dirty: boolean): void;
  onCancel(): void;
  onSaved(): void;
  onCreated(record: ResourceRecord, revealed: Record<string, string>): void;
}) {
  const mode = target.mode;
  const operation = mode === 'create' ? declaration.operations.create! : declaration.operations.update!;
  const fields = declaration.fields.filter((field) => mode === 'create' || !field.createOnly);
  const record = target.mode === 'update' ? target.record : null;
  const { form, ruleOf, formatOf, bodyOf, showError } = useResourceForm({
    declaration,
    operation,
    mode,
    fields,
    record,
    onDirty,
  });
  const [formError, setFormError] = useState<string | null>(null);
  // The answer of a create may hold what the platform shows once: not kept by TanStack Query after this form.
  const create = useMutationCall('resources.create', { carriesSecret: true });
  const optimistic = useOptimisticList(profileId, declaration.kind);
  // A change may carry a replaced secret: not kept either. The list shows the change at once (never the secret),
  // and goes back as it was when the platform refuses; the form stays open with the platform's word at its field.
  const update = useMutationCall('resources.update', {
    carriesSecret: true,
    optimistic: ({ id, values }) =>
      optimistic((records) =>
        records.map((row) =>
          recordIdOf(declaration, row) === id ? { ...row, ...withoutSecrets(declaration, values) } : row,
        ),
      ),
  });
  const saving = create.isPending || update.isPending;
  const described = declaration.describedFields;
  // The platform's description of the fields (per tenant, kept by the engine and by the query cache).
  const description = useCall('resources.describe', { profileId, kind: declaration.kind }, { enabled: !!described });
  const chosen = described ? String(record?.[described.by] ?? form.getValues()[described.by] ?? '') : '';
  const choice = description.data?.choices.find((option) => option.name === chosen) ?? null;
  /** What the engine did to the values (a secret trimmed as it was saved), said once the form has closed. */
  const sayNotes = (notes: readonly { path: string; message: string }[] | undefined) => {
    if (notes?.length) notifySuccess('Saved', notes.map((note) => `${note.path}: ${note.message}`).join('\n'));
  };
  /** The platform's (or the engine's) field errors under their fields; anything else above the buttons. */
  const onError = (error: unknown) => setFormError(showError(error));

  function submit(values: FormValues) {
    setFormError(null);
    if (mode === 'create') {
      create.mutate(
        { profileId, kind: declaration.kind, values: bodyOf(values, false) },
        {
          onSuccess: ({ record: created, revealed, notes }) => {
            create.reset();
            onCreated(created, revealed);
            sayNotes(notes);
          },
          onError,
        },
      );
    } else {
      const changed = bodyOf(values, true);
      update.mutate(
        { profileId, kind: declaration.kind, id: recordIdOf(declaration, record!), values: changed },
        {
          onSuccess: ({ notes }) => {
            update.reset();
            onSaved();
            sayNotes(notes);
          },
          onError,
        },
      );
    }
  }

  return (
    <form onSubmit={form.onSubmit(submit)} noValidate>
      <Stack gap="md">
        {fields.map((field, index) => (
          <FieldInput
            key={field.name}
            profileId={profileId}
            // The described fields' chooser (a provider) offers what the platform describes.
            field={
              described && field.name === described.by
                ? {
                    ...field,
                    options: (description.data?.choices ?? []).map((option) => ({
                      value: option.name,
                      label: option.label,
                    })),
                  }
                : field
            }
            form={form}
            rule={ruleOf(field)}
            format={formatOf(field)}
            current={record?.[field.name]}
            editing={record !== null}
            // The modal puts the keyboard in the first field, not on its close button; a picker opens its list on
            // focus, over the form, so a form that starts with one starts at the field after it.
            autoFocus={
              index ===
              Math.max(
                0,
                fields.findIndex((f) => f.input !== 'reference'),
              )
            }
          />
        ))}
        {described && (
          <DescribedFieldInputs
            described={described}
            form={form}
            choice={choice}
            loading={description.isPending}
            loadError={description.error}
            record={record}
          />
        )}
        {mode === 'create' && (declaration.revealOnce ?? []).length > 0 && (
          <Text size="xs" c="dimmed">
            The platform shows the new {declaration.singular}&rsquo;s {declaration.revealOnce!.join(', ')} once, after
            it is created.
          </Text>
        )}
        <FormFooter
          error={formError}
          saving={saving}
          submitLabel={mode === 'create' ? `Create ${declaration.singular}` : 'Save'}
          onCancel={onCancel}
        />
      </Stack>
    </form>
  );
}
