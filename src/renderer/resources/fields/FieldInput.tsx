import {
  Autocomplete,
  Button,
  ColorInput,
  Group,
  NumberInput,
  Select,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useState } from 'react';
import type { z } from 'zod';
import { isResourceKind, type FieldDeclaration } from '../../../shared/resources';
import { maskedText, SecretInput } from '../DescribedFields';
import { RecordPicker, RecordsPicker } from '../Relations';
import { MentorPicker } from '../mentor-refs';
import { DayInput } from '../../components/DayInput';
import { ImageField } from './ImageField';
import { JsonEditor } from './JsonEditor';
import type { FormValue, FormValues } from './values';

interface FieldInputProps {
  /** The tenant whose records a `reference` field picks from. */
  profileId: string;
  field: FieldDeclaration;
  form: UseFormReturnType<FormValues>;
  /** The field's rule from the spec (a JSON field's editor underlines what it refuses). */
  rule: z.ZodType | null;
  /** The spec's format of a date field: `date` or `date-time`. */
  format?: string | undefined;
  /** The record's current value (an image the platform has, a secret as its masked view shows it). */
  current?: unknown;
  /** Editing a record: a secret is kept as it is unless the admin asks to replace it. */
  editing?: boolean;
  autoFocus?: boolean;
}

/** One declared field as the input its kind asks for, bound to the form. */
export function FieldInput({ profileId, field, form, rule, format, current, editing, autoFocus }: FieldInputProps) {
  const common = { label: field.label, description: field.description, placeholder: field.placeholder };
  const props = form.getInputProps(field.name, field.input === 'switch' ? { type: 'checkbox' } : {});
  const focus = autoFocus ? { 'data-autofocus': true } : {};
  const id = `field-${field.name}`;
  switch (field.input) {
    case 'switch':
      return <Switch {...common} {...props} {...focus} />;
    case 'select':
      return (
        <Select
          {...common}
          // An empty box with no word in it reads as broken; a declaration's own placeholder says more.
          placeholder={field.placeholder ?? 'Choose one'}
          data={field.options?.map((o) => ({ value: o.value, label: o.label })) ?? []}
          {...props}
          {...focus}
        />
      );
    case 'secret':
      // Write-only: never filled in from the record; an empty box leaves the stored value as it is.
      return (
        <SecretField
          label={field.label}
          description={field.description}
          value={typeof props.value === 'string' ? props.value : ''}
          error={props.error as string | undefined}
          onChange={(value) => form.setFieldValue(field.name, value)}
          current={current}
          editing={editing ?? false}
          autoFocus={autoFocus}
        />
      );
    case 'reference':
      if (field.multiple) {
        return (
          <RecordsPicker
            {...common}
            {...props}
            {...focus}
            placeholder={field.placeholder ?? 'Choose or type to search'}
            profileId={profileId}
            kind={field.references ?? ''}
            valueField={field.referencesField}
            onChange={(value) => form.setFieldValue(field.name, value)}
          />
        );
      }
      return field.references === 'mentors' ? (
        <MentorPicker
          {...common}
          {...props}
          {...focus}
          placeholder={field.placeholder ?? 'Choose or type to search'}
          profileId={profileId}
          uniqueIn={
            field.uniqueIn && isResourceKind(field.uniqueIn) ? { kind: field.uniqueIn, field: field.name } : undefined
          }
          onChange={(value) => form.setFieldValue(field.name, value ?? '')}
        />
      ) : (
        <RecordPicker
          {...common}
          {...props}
          {...focus}
          placeholder={field.placeholder ?? 'Choose or type to search'}
          profileId={profileId}
          kind={field.references ?? ''}
          valueField={field.referencesField}
          onChange={(value) => form.setFieldValue(field.name, value as FormValue)}
        />
      );
    case 'textarea':
      return <Textarea {...common} autosize minRows={2} maxRows={12} {...props} {...focus} />;
    case 'number':
      return <NumberInput {...common} {...props} {...focus} />;
    case 'date':
      // A calendar day reads and is typed in the app's date format. A date and time keeps the browser's field
      // for now: its time of day would need a time picker beside the day.
      return format === 'date' ? (
        <DayInput
          {...common}
          {...props}
          {...focus}
          value={typeof props.value === 'string' ? props.value.slice(0, 10) : ''}
          onChange={(day) => form.setFieldValue(field.name, day)}
          clearable
        />
      ) : (
        <TextInput {...common} type="datetime-local" {...props} {...focus} />
      );
    case 'json':
      return (
        <JsonEditor
          id={id}
          label={field.label}
          description={field.description}
          placeholder={field.placeholder}
          error={props.error as string | undefined}
          value={String(form.getValues()[field.name] ?? '')}
          onChange={(text) => form.setFieldValue(field.name, text)}
          onBlur={() => form.validateField(field.name)}
          rule={rule}
          autoFocus={autoFocus}
        />
      );
    case 'image':
      return (
        <ImageField
          id={id}
          label={field.label}
          description={field.description}
          error={props.error as string | undefined}
          value={String(form.getValues()[field.name] ?? '')}
          current={current}
          dark={field.darkPreview}
          onChange={(value) => form.setFieldValue(field.name, value)}
          onError={(message) => (message ? form.setFieldError(field.name, message) : form.clearFieldError(field.name))}
          autoFocus={autoFocus}
        />
      );
    case 'color':
      // Any text may be typed (the spec takes a string): a value the picker cannot read is kept, not reverted.
      return <ColorInput {...common} format="hex" fixOnBlur={false} {...props} {...focus} />;
    default:
      return field.suggestions ? (
        <Autocomplete {...common} data={[...field.suggestions]} {...props} {...focus} />
      ) : (
        <TextInput {...common} autoComplete="off" {...props} {...focus} />
      );
  }
}

/** A secret field: pasted keys trimmed at the field; editing, the stored one shown masked until "Replace". */
function SecretField({
  current,
  editing,
  autoFocus,
  ...input
}: {
  label: string;
  description?: string | undefined;
  value: string;
  error?: string | undefined;
  onChange(value: string): void;
  current: unknown;
  editing: boolean;
  autoFocus?: boolean | undefined;
}) {
  const [replacing, setReplacing] = useState(!editing);
  // Replace puts the keyboard in the new value's box.
  if (replacing) return <SecretInput {...input} autoFocus={Boolean(autoFocus) || editing} />;
  return (
    <Stack gap={6}>
      <Text size="sm" fw={500}>
        {input.label}
      </Text>
      <Group justify="space-between" wrap="nowrap" gap="sm">
        <Text size="sm" ff="monospace" c="dimmed" style={{ wordBreak: 'break-all' }} data-testid="stored-secret">
          {current === undefined ? 'Not shown' : maskedText(current)}
        </Text>
        <Button
          size="xs"
          variant="default"
          onClick={() => setReplacing(true)}
          {...(autoFocus && { 'data-autofocus': true })}
        >
          Replace
        </Button>
      </Group>
      <Text size="xs" c="dimmed">
        Kept as it is unless you replace it; the platform never shows it again.
      </Text>
    </Stack>
  );
}
