import { Alert, Button, Group, Modal, PasswordInput, Select, Stack, Switch, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMemo, useRef, useState } from 'react';
import { BridgeCallError, type ResourceRecord } from '../../shared/contract';
import { formSchema, type FieldDeclaration, type ResourceDeclaration, type ResourceKind } from '../../shared/resources';
import { errorMessage } from '../bridge/errors';
import { FormFooter } from '../components/FormFooter';
import { WarningIcon } from '../components/icons';
import { useMutationCall } from '../queries/useCall';
import { titleOf } from './naming';
import { RecordPicker } from './Relations';

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
  const dirty = useRef(false);
  const [asking, setAsking] = useState(false);
  const close = () => {
    dirty.current = false;
    setAsking(false);
    onClose();
  };
  /** Escape, the close button or Cancel with changes typed: asked first, never lost by a slip of the key. */
  const leave = () => (dirty.current ? setAsking(true) : close());
  return (
    <Modal opened={target !== null} onClose={leave} title={target && title(declaration, target)} centered size="lg">
      {asking && (
        <Alert color="yellow" icon={<WarningIcon />} title="Discard what you typed?" mb="md" role="alertdialog">
          <Group gap="sm" mt="xs">
            <Button size="xs" variant="default" onClick={() => setAsking(false)} data-autofocus>
              Keep editing
            </Button>
            <Button size="xs" color="red" onClick={close}>
              Discard
            </Button>
          </Group>
        </Alert>
      )}
      {target && (
        <ResourceForm
          key={target.mode === 'create' ? 'create' : String(target.record[declaration.idField])}
          profileId={profileId}
          declaration={declaration}
          target={target}
          onDirty={(value) => {
            dirty.current = value;
          }}
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

type Values = Record<string, string | boolean>;

function initialValue(field: FieldDeclaration, record: ResourceRecord | null): string | boolean {
  const current = record?.[field.name];
  if (field.input === 'switch') return typeof current === 'boolean' ? current : field.initial === true;
  if (field.input === 'secret') return '';
  return typeof current === 'string' ? current : typeof field.initial === 'string' ? field.initial : '';
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
  const schema = useMemo(() => formSchema(declaration, operation, mode), [declaration, operation, mode]);
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: Object.fromEntries(fields.map((field) => [field.name, initialValue(field, record)])),
    validate: schemaResolver(schema, { sync: true }),
    validateInputOnBlur: true,
    onValuesChange: () => onDirty(form.isDirty()),
  });
  const [formError, setFormError] = useState<string | null>(null);
  // The answer of a create may hold what the platform shows once: not kept by TanStack Query after this form.
  const create = useMutationCall('resources.create', { carriesSecret: true });
  const update = useMutationCall('resources.update');
  const saving = create.isPending || update.isPending;

  /** The platform's (or the engine's) field errors under their fields; anything else above the buttons. */
  function showError(error: unknown) {
    if (error instanceof BridgeCallError && error.code === 'validation' && error.issues?.length) {
      const other: string[] = [];
      for (const issue of error.issues) {
        if (fields.some((field) => field.name === issue.path)) form.setFieldError(issue.path, issue.message);
        else other.push(issue.path ? `${issue.path}: ${issue.message}` : issue.message);
      }
      setFormError(other.length ? other.join('\n') : null);
      return;
    }
    setFormError(errorMessage(error));
  }

  function submit(values: Values) {
    setFormError(null);
    if (mode === 'create') {
      create.mutate(
        { profileId, kind: declaration.kind, values },
        {
          onSuccess: ({ record: created, revealed }) => {
            create.reset();
            onCreated(created, revealed);
          },
          onError: showError,
        },
      );
    } else {
      const changed = Object.fromEntries(Object.entries(values).filter(([name]) => form.isDirty(name)));
      update.mutate(
        { profileId, kind: declaration.kind, id: String(record![declaration.idField]), values: changed },
        { onSuccess: onSaved, onError: showError },
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
            field={field}
            // The modal puts the keyboard in the first field, not on its close button.
            props={{
              ...form.getInputProps(field.name, field.input === 'switch' ? { type: 'checkbox' } : {}),
              ...(index === 0 && { 'data-autofocus': true }),
            }}
          />
        ))}
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

/** One declared field as the input its kind asks for. */
function FieldInput({
  profileId,
  field,
  props,
}: {
  profileId: string;
  field: FieldDeclaration;
  props: ReturnType<ReturnType<typeof useForm>['getInputProps']>;
}) {
  const common = { label: field.label, description: field.description, placeholder: field.placeholder };
  switch (field.input) {
    case 'switch':
      return <Switch {...common} {...props} />;
    case 'select':
      return (
        <Select {...common} data={field.options?.map((o) => ({ value: o.value, label: o.label })) ?? []} {...props} />
      );
    case 'reference':
      return <RecordPicker {...common} {...props} profileId={profileId} kind={field.references ?? ''} />;
    case 'secret':
      // Write-only: never filled in from the record; an empty box leaves the stored value as it is.
      return <PasswordInput {...common} autoComplete="new-password" {...props} />;
    default:
      return <TextInput {...common} autoComplete="off" {...props} />;
  }
}
