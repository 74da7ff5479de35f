import { schemaResolver, useForm } from '@mantine/form';
import { useMemo } from 'react';
import type { ResourceRecord } from '../../../shared/contract';
import {
  fieldRule,
  fieldSchema,
  formSchema,
  type FieldDeclaration,
  type OperationRef,
  type ResourceDeclaration,
} from '../../../shared/resources';
import { showSaveError } from '../../lib/forms';
import { initialValue, toBody, type FormValues } from './values';

/**
 * A kit form over declared fields: values as the inputs hold them, checked as the engine will check them (converted
 * first, then the spec's rules), and the body of what changed. A kind with described fields (a credential's `value`)
 * has one more value, an object of texts by the names the platform describes.
 */
export function useResourceForm(options: {
  declaration: ResourceDeclaration;
  operation: OperationRef | null;
  mode: 'create' | 'update';
  fields: readonly FieldDeclaration[];
  record: ResourceRecord | null;
  onDirty?(dirty: boolean): void;
}) {
  const { declaration, operation, mode, fields, record } = options;
  const described = declaration.describedFields;
  const schema = useMemo(() => formSchema(declaration, operation, mode), [declaration, operation, mode]);
  const resolve = useMemo(() => schemaResolver(schema, { sync: true }), [schema]);
  const specOf = useMemo(
    () =>
      Object.fromEntries(
        fields.map((field) => {
          const property = fieldSchema(declaration, field, operation);
          return [field.name, property] as const;
        }),
      ),
    [declaration, operation, fields],
  );
  /** The described object as sent: its empty fields left out, and left out itself when nothing in it was given. */
  const withDescribed = (body: Record<string, unknown>, values: FormValues): Record<string, unknown> => {
    if (!described) return body;
    const object = values[described.field];
    const given = Object.fromEntries(
      Object.entries(object && typeof object === 'object' ? object : {}).filter(([, value]) => value !== ''),
    );
    return Object.keys(given).length || mode === 'create' ? { ...body, [described.field]: given } : body;
  };
  const form = useForm<FormValues>({
    mode: 'controlled',
    initialValues: {
      ...Object.fromEntries(fields.map((field) => [field.name, initialValue(field, record)])),
      // A described object starts empty: its stored values are never filled in (they are secrets).
      ...(described && { [described.field]: {} }),
    },
    validate: (values) => {
      const { body, errors } = toBody(fields, values);
      return { ...resolve(withDescribed(body, values)), ...errors };
    },
    validateInputOnBlur: true,
    onValuesChange: (values, previous) => {
      // Another choice (provider) has other described fields: what was typed for the last one is not kept.
      if (described && values[described.by] !== previous[described.by]) form.setFieldValue(described.field, {});
      options.onDirty?.(form.isDirty());
    },
  });
  /** The form field an issue's path names: a declared field, or one of the described object's. */
  const fieldOf = (path: string) =>
    fields.some((field) => field.name === path) || (described && path.startsWith(`${described.field}.`))
      ? path
      : undefined;
  return {
    form,
    /** The JSON rule of a field, for its editor. */
    ruleOf: (field: FieldDeclaration) => {
      const property = specOf[field.name];
      return property && field.input === 'json' ? fieldRule(property) : null;
    },
    formatOf: (field: FieldDeclaration) => specOf[field.name]?.format,
    /** The spec allows no value (null) for the field: a blank one is a value, not a missing one. */
    blankAllowed: (name: string) => {
      const type = specOf[name]?.type;
      return Array.isArray(type) && type.includes('null');
    },
    /** Every value (create), or those changed (update), as the engine takes them. */
    bodyOf: (values: FormValues, changedOnly: boolean) =>
      withDescribed(
        toBody(changedOnly ? fields.filter((field) => form.isDirty(field.name)) : fields, values).body,
        values,
      ),
    /** A failed save: its field errors under their fields; the rest as the form's message (null when none). */
    showError: (error: unknown) => showSaveError(form, error, fieldOf),
  };
}
