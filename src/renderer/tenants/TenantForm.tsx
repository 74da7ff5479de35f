import { Checkbox, Group, PasswordInput, Select, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { AUTH_SCHEMES, AuthScheme, type Profile } from '../../shared/contract';
import { saveErrors } from '../bridge/errors';
import { FormFooter } from '../components/FormFooter';
import { notifySuccess } from '../components/notify';
import { useMutationCall } from '../queries/useCall';
import { API_KEY_ENV_VAR } from './keyStatus';
import {
  emptyTenantForm,
  splitIssues,
  tenantFormFrom,
  toAddInput,
  toUpdateInput,
  type FieldErrors,
  type TenantFormValues,
} from './tenantForm';

export type EditorTarget = { mode: 'add' } | { mode: 'edit'; profile: Profile };

interface TenantFormProps {
  target: EditorTarget;
  onCancel(): void;
  onSaved(profile: Profile): void;
}

/** Add or edit one tenant connection. The key field is write-only: empty on edit, cleared after each submit. */
export function TenantForm({ target, onCancel, onSaved }: TenantFormProps) {
  const editing = target.mode === 'edit' ? target.profile : undefined;
  const [values, setValues] = useState<TenantFormValues>(() => (editing ? tenantFormFrom(editing) : emptyTenantForm()));
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [keyWasCleared, setKeyWasCleared] = useState(false);
  const add = useMutationCall('profiles.add', { carriesSecret: true });
  const update = useMutationCall('profiles.update', { carriesSecret: true });
  const saving = add.isPending || update.isPending;

  function setField<K extends keyof TenantFormValues>(field: K, value: TenantFormValues[K]) {
    setValues((current) => ({ ...current, [field]: value }));
    setFieldErrors((current) => ({ ...current, [field]: undefined }));
  }

  function showError(error: unknown) {
    const { fields, form } = saveErrors(error, splitIssues);
    setFieldErrors(fields);
    setFormError(form);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const submitted = values;
    // The key leaves React state the moment it is handed to the bridge, whatever the outcome.
    setValues((current) => ({ ...current, key: '' }));
    setKeyWasCleared(submitted.key !== '');
    setFieldErrors({});
    setFormError(null);
    try {
      const saved = editing
        ? await update.mutateAsync(toUpdateInput(editing, submitted))
        : await add.mutateAsync(toAddInput(submitted));
      notifySuccess(editing ? 'Tenant updated' : 'Tenant added', `${saved.name} is saved.`);
      onSaved(saved);
    } catch (error) {
      showError(error);
    } finally {
      add.reset();
      update.reset();
    }
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TextInput
          label="Name"
          placeholder="Acme University"
          required
          data-autofocus
          value={values.name}
          error={fieldErrors.name}
          onChange={(event) => setField('name', event.currentTarget.value)}
        />
        <TextInput
          label="Base URL"
          description="The tenant's API address. It may include a path prefix, such as https://api.example.org/dm"
          placeholder="https://api.example.org/dm"
          required
          type="url"
          spellCheck={false}
          value={values.baseUrl}
          error={fieldErrors.baseUrl}
          onChange={(event) => setField('baseUrl', event.currentTarget.value)}
        />
        <Group grow align="flex-start">
          <TextInput
            label="Org (tenant key)"
            placeholder="acme"
            required
            spellCheck={false}
            value={values.org}
            error={fieldErrors.org}
            onChange={(event) => setField('org', event.currentTarget.value)}
          />
          <TextInput
            label="Username"
            placeholder="admin"
            required
            spellCheck={false}
            autoComplete="off"
            value={values.username}
            error={fieldErrors.username}
            onChange={(event) => setField('username', event.currentTarget.value)}
          />
        </Group>
        <Select
          label="Auth scheme"
          description="Sent as “Authorization: <scheme> <key>”. Most tenants use Api-Key."
          data={[...AUTH_SCHEMES]}
          allowDeselect={false}
          value={values.authScheme}
          error={fieldErrors.authScheme}
          onChange={(value) => setField('authScheme', AuthScheme.catch('Api-Key').parse(value))}
        />
        {editing?.isSandbox ? (
          <Text size="sm" c="dimmed">
            The local sandbox issues its own key; Mentor Admin manages it for you.
          </Text>
        ) : (
          <KeyFields
            editing={editing}
            values={values}
            error={fieldErrors.key}
            keyWasCleared={keyWasCleared}
            onKeyChange={(key) => setField('key', key)}
            onRemoveStoredKeyChange={(remove) => setField('removeStoredKey', remove)}
          />
        )}
        {!editing && (
          <Checkbox
            label="Make this the active tenant"
            checked={values.makeActive}
            onChange={(event) => setField('makeActive', event.currentTarget.checked)}
          />
        )}
        <FormFooter
          error={formError}
          saving={saving}
          submitLabel={editing ? 'Save changes' : 'Add tenant'}
          onCancel={onCancel}
        />
      </Stack>
    </form>
  );
}

interface KeyFieldsProps {
  editing: Profile | undefined;
  values: TenantFormValues;
  error: string | undefined;
  keyWasCleared: boolean;
  onKeyChange(key: string): void;
  onRemoveStoredKeyChange(remove: boolean): void;
}

/** The write-only key input, and on edit the choice to delete the stored key instead. */
function KeyFields({ editing, values, error, keyWasCleared, onKeyChange, onRemoveStoredKeyChange }: KeyFieldsProps) {
  return (
    <>
      <PasswordInput
        label="API key or token"
        description={keyDescription(editing, keyWasCleared)}
        placeholder={editing?.hasSecret ? 'Leave empty to keep the stored key' : 'Paste the key'}
        autoComplete="new-password"
        spellCheck={false}
        disabled={values.removeStoredKey}
        value={values.key}
        error={error}
        onChange={(event) => onKeyChange(event.currentTarget.value)}
      />
      {editing?.hasSecret && (
        <Checkbox
          label="Remove stored key"
          description={
            editing.secretSource === 'env'
              ? `Deletes any key stored in the OS keychain for this tenant; ${API_KEY_ENV_VAR} still applies.`
              : "Deletes this tenant's key from the OS keychain."
          }
          checked={values.removeStoredKey}
          onChange={(event) => onRemoveStoredKeyChange(event.currentTarget.checked)}
        />
      )}
    </>
  );
}

function keyDescription(editing: Profile | undefined, keyWasCleared: boolean): string {
  if (keyWasCleared) return 'The key field was cleared when you saved. Enter the key again to send it.';
  if (editing?.secretSource === 'env')
    return `The key now comes from ${API_KEY_ENV_VAR}. A key typed here goes to the OS keychain.`;
  if (editing?.hasSecret) return 'A key is stored. Type a new one only to replace it.';
  return 'Stored in the OS keychain and never shown again.';
}
