import { Alert, Button, Group, Modal, Select, Stack, Switch, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMemo, useRef, useState, type ReactNode } from 'react';
import { BridgeCallError, type ResourceRecord } from '../../shared/contract';
import { formSchema, type FieldDeclaration, type ResourceDeclaration, type ResourceKind } from '../../shared/resources';
import { errorMessage } from '../bridge/errors';
import { FormFooter } from '../components/FormFooter';
import { WarningIcon } from '../components/icons';
import { notifySuccess } from '../components/notify';
import { useCall, useMutationCall } from '../queries/useCall';
import { DescribedFieldInputs, SecretInput } from './DescribedFields';
import { titleOf } from './naming';

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

type Values = Record<string, unknown>;

function initialValue(field: FieldDeclaration, record: ResourceRecord | null): unknown {
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
  const described = declaration.describedFields;
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: {
      ...Object.fromEntries(fields.map((field) => [field.name, initialValue(field, record)])),
      // A described object starts empty: its stored values are never filled in (they are secrets).
      ...(described && { [described.field]: {} }),
    },
    validate: schemaResolver(schema, { sync: true }),
    validateInputOnBlur: true,
    onValuesChange: () => onDirty(form.isDirty()),
  });
  const [formError, setFormError] = useState<string | null>(null);
  // The answer of a create may hold what the platform shows once: not kept by TanStack Query after this form.
  const create = useMutationCall('resources.create', { carriesSecret: true });
  // A change may carry a replaced secret: not kept either.
  const update = useMutationCall('resources.update', { carriesSecret: true });
  const saving = create.isPending || update.isPending;
  // The platform's description of the fields (per tenant, kept by the engine and by the query cache).
  const description = useCall('resources.describe', { profileId, kind: declaration.kind }, { enabled: !!described });
  const chosen = described
    ? String(record?.[described.by] ?? (form.getValues()[described.by] as string | undefined) ?? '')
    : '';
  const choice = description.data?.choices.find((option) => option.name === chosen) ?? null;
  /** What the engine did to the values (a secret trimmed as it was saved), said once the form has closed. */
  const sayNotes = (notes: readonly { path: string; message: string }[] | undefined) => {
    if (notes?.length) notifySuccess('Saved', notes.map((note) => `${note.path}: ${note.message}`).join('\n'));
  };
  /** The described object as sent: its empty fields left out, and left out itself when nothing in it was given. */
  const withDescribed = (values: Values): Values => {
    if (!described) return values;
    const { [described.field]: object, ...rest } = values;
    const given = Object.fromEntries(
      Object.entries((object ?? {}) as Record<string, unknown>).filter(([, value]) => value !== ''),
    );
    return Object.keys(given).length || mode === 'create' ? { ...rest, [described.field]: given } : rest;
  };

  /** The platform's (or the engine's) field errors under their fields; anything else above the buttons. */
  function showError(error: unknown) {
    if (error instanceof BridgeCallError && error.code === 'validation' && error.issues?.length) {
      const other: string[] = [];
      for (const issue of error.issues) {
        const atField =
          fields.some((field) => field.name === issue.path) ||
          (described && issue.path.startsWith(`${described.field}.`));
        if (atField) form.setFieldError(issue.path, issue.message);
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
        { profileId, kind: declaration.kind, values: withDescribed(values) },
        {
          onSuccess: ({ record: created, revealed, notes }) => {
            create.reset();
            onCreated(created, revealed);
            sayNotes(notes);
          },
          onError: showError,
        },
      );
    } else {
      const changed = withDescribed(Object.fromEntries(Object.entries(values).filter(([name]) => form.isDirty(name))));
      update.mutate(
        { profileId, kind: declaration.kind, id: String(record![declaration.idField]), values: changed },
        {
          onSuccess: ({ notes }) => {
            update.reset();
            onSaved();
            sayNotes(notes);
          },
          onError: showError,
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
            // The modal puts the keyboard in the first field, not on its close button.
            props={{
              ...form.getInputProps(field.name, field.input === 'switch' ? { type: 'checkbox' } : {}),
              ...(described &&
                field.name === described.by && {
                  // Another provider has other fields: what was typed for the last one is not kept.
                  onChange: (value: string | null) => {
                    form.setFieldValue(field.name, value ?? '');
                    form.setFieldValue(described.field, {});
                  },
                }),
              ...(index === 0 && { 'data-autofocus': true }),
            }}
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

/** One declared field as the input its kind asks for. */
function FieldInput({
  field,
  props,
}: {
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
    case 'secret':
      // Write-only: never filled in from the record; an empty box leaves the stored value as it is.
      return (
        <SecretInput
          label={field.label}
          description={field.description}
          value={typeof props.value === 'string' ? props.value : ''}
          error={props.error as ReactNode}
          onChange={(value) => (props.onChange as (value: string) => void)(value)}
        />
      );
    default:
      return <TextInput {...common} autoComplete="off" {...props} />;
  }
}
