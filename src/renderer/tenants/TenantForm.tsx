import { Button, Checkbox, Group, PasswordInput, Select, Stack, Text, TextInput } from '@mantine/core';
import { useForm, type UseFormReturnType } from '@mantine/form';
import { useEffect, useRef, useState } from 'react';
import {
  AUTH_SCHEMES,
  AuthScheme,
  BridgeCallError,
  ProfileAddInput,
  ProfileUpdateInput,
  type Profile,
} from '../../shared/contract';
import { FormFooter } from '../components/FormFooter';
import { PlugIcon } from '../components/icons';
import { notifySuccess } from '../components/notify';
import { changedValues, contractResolver, showSaveError } from '../lib/forms';
import { useCall, useMutationCall } from '../queries/useCall';
import { TestResultPanel, type TestRun } from '../screens/settings/TestResultPanel';
import { API_KEY_ENV_VAR } from './keyStatus';
import {
  emptyTenantForm,
  keyMovesAway,
  PROFILE_FIELDS,
  tenantFieldOf,
  tenantFormFrom,
  toAddInput,
  toTryInput,
  toUpdateInput,
  type TenantFormValues,
} from './tenantForm';

type TenantFormState = UseFormReturnType<TenantFormValues>;

export type EditorTarget = { mode: 'add' } | { mode: 'edit'; profile: Profile };

interface TenantFormProps {
  target: EditorTarget;
  onCancel(): void;
  onSaved(profile: Profile): void;
}

/**
 * Add or edit one tenant connection, and test it as typed before saving. The key field is write-only: empty on edit,
 * sent only by Test or Save, kept while the dialog is open (a failed save keeps it to try again), gone with the dialog.
 */
export function TenantForm({ target, onCancel, onSaved }: TenantFormProps) {
  const editing = target.mode === 'edit' ? target.profile : undefined;
  const info = useCall('app.info', {});
  const keychainDown = info.data ? !info.data.keychain.available : false;
  // Checked with the contract's schema over what Save sends: the engine's own messages, under their fields.
  const form: TenantFormState = useForm<TenantFormValues>({
    mode: 'controlled',
    initialValues: editing ? tenantFormFrom(editing) : emptyTenantForm(),
    validate: contractResolver(
      editing ? ProfileUpdateInput : ProfileAddInput,
      (values: TenantFormValues) => toInput(values),
      tenantFieldOf,
    ),
  });
  const values = form.values;
  const [formError, setFormError] = useState<string | null>(null);
  const [testRun, setTestRun] = useState<TestRun | null>(null);
  const testPanel = useRef<HTMLDivElement>(null);
  // A short window scrolls the dialog: the verdict comes into view when it lands.
  useEffect(() => {
    if (testRun?.state !== 'running') testPanel.current?.scrollIntoView({ block: 'nearest' });
  }, [testRun]);
  const add = useMutationCall('profiles.add', { carriesSecret: true });
  const update = useMutationCall('profiles.update', { carriesSecret: true });
  const tryIt = useMutationCall('profiles.try', { carriesSecret: true });
  const saving = add.isPending || update.isPending;
  // Without a keychain a typed key can only be kept for this session; the admin says so by leaving this on.
  const sessionOnly = keychainDown && values.sessionOnly;

  /** What Save sends: on edit, only the profile's fields the admin changed, and the key when one is typed. */
  function toInput(values: TenantFormValues) {
    return editing
      ? toUpdateInput(editing, changedValues(form, PROFILE_FIELDS), values, { sessionOnly })
      : toAddInput(values, { sessionOnly });
  }

  function showError(error: unknown) {
    setFormError(showSaveError(form, error, tenantFieldOf));
  }

  async function submit(values: TenantFormValues) {
    setFormError(null);
    try {
      const saved = editing
        ? await update.mutateAsync(toUpdateInput(editing, changedValues(form, PROFILE_FIELDS), values, { sessionOnly }))
        : await add.mutateAsync(toAddInput(values, { sessionOnly }));
      notifySuccess(editing ? 'Tenant updated' : 'Tenant added', `${saved.name} is saved.`);
      onSaved(saved);
    } catch (error) {
      showError(error);
    } finally {
      // The mutation let go of its variables (the key) as soon as it settled.
      add.reset();
      update.reset();
    }
  }

  async function test() {
    form.clearErrors();
    setFormError(null);
    setTestRun({ state: 'running' });
    try {
      setTestRun({ state: 'done', result: await tryIt.mutateAsync(toTryInput(editing, values)) });
    } catch (error) {
      if (error instanceof BridgeCallError && error.code === 'validation' && error.issues?.length) {
        setTestRun(null);
        showError(error);
      } else setTestRun({ state: 'failed', error });
    } finally {
      tryIt.reset();
    }
  }

  const testButton = (
    <Button
      variant="default"
      leftSection={<PlugIcon size={16} />}
      loading={tryIt.isPending}
      disabled={saving}
      onClick={() => void test()}
    >
      Test connection
    </Button>
  );

  return (
    <form
      onSubmit={form.onSubmit(
        (values) => void submit(values),
        () => setFormError(null),
      )}
      noValidate
    >
      <Stack gap="md">
        <TextInput label="Name" placeholder="Acme University" required data-autofocus {...form.getInputProps('name')} />
        <TextInput
          label="Base URL"
          description="The tenant's API address with any path prefix; https (plain http only for this computer)"
          placeholder="https://api.example.org/dm"
          required
          type="url"
          spellCheck={false}
          {...form.getInputProps('baseUrl')}
        />
        <Group grow align="flex-start">
          <TextInput
            label="Org (tenant key)"
            placeholder="acme"
            required
            spellCheck={false}
            description={unusual(values.org, 'tenant keys')}
            {...form.getInputProps('org')}
          />
          <TextInput
            label="Username"
            placeholder="admin"
            required
            spellCheck={false}
            autoComplete="off"
            description={unusual(values.username, 'usernames')}
            {...form.getInputProps('username')}
          />
        </Group>
        {editing?.isSandbox ? (
          <>
            <AuthSchemeSelect form={form} />
            <Text size="sm" c="dimmed">
              The local sandbox issues its own key; Mentor Admin manages it for you.
            </Text>
          </>
        ) : (
          <KeyFields editing={editing} form={form} keychainDown={keychainDown} />
        )}
        {!editing && (
          <Checkbox label="Make this the active tenant" {...form.getInputProps('makeActive', { type: 'checkbox' })} />
        )}
        {testRun && (
          <div ref={testPanel}>
            <TestResultPanel
              tenantName={values.name.trim() || 'the tenant'}
              run={testRun}
              onDismiss={() => setTestRun(null)}
            />
          </div>
        )}
        <FormFooter
          error={formError}
          saving={saving}
          submitLabel={editing ? 'Save changes' : 'Add tenant'}
          onCancel={onCancel}
          secondary={testButton}
        />
      </Stack>
    </form>
  );
}

function AuthSchemeSelect({ form }: { form: TenantFormState }) {
  return (
    <Select
      label="Auth scheme"
      description="Most tenants use Api-Key"
      data={[...AUTH_SCHEMES]}
      allowDeselect={false}
      w={180}
      {...form.getInputProps('authScheme')}
      onChange={(value) => form.setFieldValue('authScheme', AuthScheme.catch('Api-Key').parse(value))}
    />
  );
}

interface KeyFieldsProps {
  editing: Profile | undefined;
  form: TenantFormState;
  keychainDown: boolean;
}

/**
 * The scheme and the write-only key input; for this session only when the keychain is out of reach; on edit,
 * removing the stored key, and a warning when the address moves to another server (the key does not follow it).
 */
function KeyFields({ editing, form, keychainDown }: KeyFieldsProps) {
  const values = form.values;
  const ownKey = editing?.secretSource === 'keychain' || editing?.secretSource === 'session';
  const movesAway =
    editing !== undefined && ownKey && keyMovesAway(editing, values) && !values.key.trim() && !values.removeStoredKey;
  return (
    <Stack gap="xs">
      <Group align="flex-start" gap="md" wrap="nowrap">
        <AuthSchemeSelect form={form} />
        <PasswordInput
          label="API key or token"
          description={
            movesAway ? (
              <Text span inherit c="orange">
                {movedAwayMessage}
              </Text>
            ) : (
              keyDescription(editing, values, keychainDown)
            )
          }
          placeholder={editing?.hasSecret && !movesAway ? 'Leave empty to keep the stored key' : 'Paste the key'}
          autoComplete="new-password"
          spellCheck={false}
          disabled={values.removeStoredKey}
          style={{ flex: 1, minWidth: 0 }}
          {...form.getInputProps('key')}
        />
      </Group>
      {keychainDown && (
        <Checkbox
          label="Use this key for this session only"
          description="The OS keychain is unavailable. The key stays in Mentor Admin's memory until it quits: never on disk."
          disabled={values.removeStoredKey}
          {...form.getInputProps('sessionOnly', { type: 'checkbox' })}
        />
      )}
      {editing?.hasSecret && (
        <Checkbox
          label="Remove stored key"
          description={
            editing.secretSource === 'env'
              ? `Deletes any key stored for this tenant; ${API_KEY_ENV_VAR} still applies while it is set.`
              : editing.secretSource === 'session'
                ? 'Forgets the key kept for this session.'
                : "Deletes this tenant's key from the OS keychain."
          }
          {...form.getInputProps('removeStoredKey', { type: 'checkbox' })}
        />
      )}
    </Stack>
  );
}

/** The platform allows it, so it is not refused; but it is rare enough to be a typo worth a look. */
function unusual(value: string, what: string) {
  if (!/\s/.test(value.trim())) return undefined;
  return (
    <Text span inherit c="orange">
      Contains a space: {what} rarely do. Check it (it is sent URL-encoded).
    </Text>
  );
}

const movedAwayMessage =
  'The address moves to another server: enter its key, or remove the stored key (a key is never sent to another server).';

function keyDescription(editing: Profile | undefined, values: TenantFormValues, keychainDown: boolean): string {
  if (editing?.secretSource === 'env') {
    return `The key now comes from ${API_KEY_ENV_VAR}, which serves this tenant only. A key typed here is kept for when it is not set.`;
  }
  if (editing?.secretSource === 'session')
    return 'A key is kept for this session only. Type a new one only to replace it.';
  if (editing?.hasSecret) return 'A key is stored. Type a new one only to replace it.';
  if (keychainDown)
    return values.sessionOnly ? 'Kept in memory for this session only.' : 'The OS keychain is unavailable.';
  return 'Stored in the OS keychain and never shown again.';
}
