import { Alert, Button, Group, PasswordInput, Skeleton, Stack, Text, Textarea } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useState, type ReactNode } from 'react';
import type { DescribedChoice, ResourceRecord } from '../../shared/contract';
import { TRIMMED_NOTE, type DescribedFields as Described } from '../../shared/resources';
import { errorMessage } from '../bridge/errors';
import { WarningIcon } from '../components/icons';
import type { FormValues } from './fields/values';
import { fieldLabel } from './naming';

type Form = UseFormReturnType<FormValues>;

/**
 * A secret typed or pasted into a password box. Spaces and line breaks around a pasted key are never part of it: they
 * are removed as it arrives (a paste or a fill, not a space typed at the end, which blur removes), and the field says
 * so. Write-only: it starts empty and is never filled in from a record.
 */
export function SecretInput({
  label,
  description,
  value,
  error,
  onChange,
  autoFocus,
  multiline,
}: {
  /** A key of several lines (a PEM private key): a password box would drop its line breaks. */
  multiline?: boolean;
  label: string;
  description?: ReactNode;
  value: string;
  error?: ReactNode;
  onChange(value: string): void;
  autoFocus?: boolean;
}) {
  const [trimmed, setTrimmed] = useState(false);
  const take = (next: string, settled: boolean) => {
    if (next !== next.trim() && (settled || Math.abs(next.length - value.length) > 1)) {
      setTrimmed(true);
      onChange(next.trim());
    } else onChange(next);
  };
  return (
    <Stack gap={4}>
      {multiline ? (
        <Textarea
          label={label}
          description={description}
          value={value}
          error={error}
          autoComplete="off"
          spellCheck={false}
          autosize
          minRows={3}
          maxRows={8}
          // Drawn as dots like a password box (Chromium), with its line breaks kept.
          styles={{ input: { WebkitTextSecurity: 'disc', fontFamily: 'monospace' } as Record<string, string> }}
          onChange={(event) => take(event.currentTarget.value, false)}
          onBlur={(event) => take(event.currentTarget.value, true)}
          {...(autoFocus && { 'data-autofocus': true })}
        />
      ) : (
        <PasswordInput
          label={label}
          description={description}
          value={value}
          error={error}
          autoComplete="new-password"
          spellCheck={false}
          onChange={(event) => take(event.currentTarget.value, false)}
          onBlur={(event) => take(event.currentTarget.value, true)}
          {...(autoFocus && { 'data-autofocus': true })}
        />
      )}
      {trimmed && (
        <Text size="xs" c="teal" role="status" data-testid="trimmed-note">
          {TRIMMED_NOTE}
        </Text>
      )}
    </Stack>
  );
}

/** Described fields that hold several lines (a service account's PEM key), by the names providers give them. */
const MULTILINE = /private_key|certificate|pem$/i;

/** A stored secret as the platform's masked view shows it: "key ••••3456". */
export function maskedText(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (Array.isArray(value)) return value.map(String).join(', ');
  if (typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>)
      .map(([name, entry]) => `${name}: ${typeof entry === 'object' ? JSON.stringify(entry) : String(entry)}`)
      .join(' · ');
  }
  return String(value);
}

/**
 * The fields the platform describes for the chosen provider (its credential schema), as secret inputs under
 * `<field>.<name>`. Editing, the stored values are shown masked with "Replace": a replacement gives every field
 * again, as the platform replaces the value as a whole.
 */
export function DescribedFieldInputs({
  described,
  form,
  choice,
  loading,
  loadError,
  record,
}: {
  described: Described;
  form: Form;
  choice: DescribedChoice | null;
  loading: boolean;
  loadError: unknown;
  record: ResourceRecord | null;
}) {
  const [replacing, setReplacing] = useState(record === null);
  if (loadError) {
    return (
      <Alert color="red" variant="light" icon={<WarningIcon />} title="The platform's field list could not be read">
        {errorMessage(loadError)}
      </Alert>
    );
  }
  if (loading) return <Skeleton height={58} radius="sm" aria-label="Loading the fields" />;
  if (!choice) {
    return (
      <Text size="sm" c="dimmed">
        Choose one above: its fields come from the platform.
      </Text>
    );
  }
  if (!choice.fields.length) {
    return (
      <Text size="sm" c="dimmed">
        The platform describes no fields for {choice.label}.
      </Text>
    );
  }
  const stored = record?.[described.field];
  if (!replacing) {
    return (
      <Stack gap={6}>
        <Text size="sm" fw={500}>
          Stored {choice.fields.length === 1 ? 'value' : 'values'}
        </Text>
        <Group justify="space-between" wrap="nowrap" gap="sm">
          <Text size="sm" ff="monospace" c="dimmed" style={{ wordBreak: 'break-all' }} data-testid="stored-secret">
            {maskedText(stored)}
          </Text>
          <Button size="xs" variant="default" onClick={() => setReplacing(true)}>
            Replace
          </Button>
        </Group>
        <Text size="xs" c="dimmed">
          Kept as it is unless you replace it; the platform never shows it again.
        </Text>
      </Stack>
    );
  }
  return (
    <Stack gap="sm">
      {record && (
        <Text size="xs" c="dimmed">
          Enter {choice.fields.length === 1 ? 'the new value' : 'every value again'}: the platform replaces the stored
          {choice.fields.length === 1 ? ' one' : ' ones'} as a whole.
        </Text>
      )}
      {choice.fields.map((field, index) => {
        const path = `${described.field}.${field.name}`;
        const props = form.getInputProps(path);
        return (
          <SecretInput
            key={`${choice.name}:${field.name}`}
            label={fieldLabel(field.name)}
            value={typeof props.value === 'string' ? props.value : ''}
            error={props.error as ReactNode}
            onChange={(next) => form.setFieldValue(path, next)}
            autoFocus={record !== null && index === 0}
            multiline={MULTILINE.test(field.name)}
          />
        );
      })}
    </Stack>
  );
}
