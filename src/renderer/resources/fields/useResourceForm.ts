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
import { initialValue, toBody, type FormValues } from './values';

/**
 * A kit form over declared fields: values as the inputs hold them, checked as the engine will check them (converted
 * first, then the spec's rules), and the body of what changed.
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
  const form = useForm<FormValues>({
    mode: 'controlled',
    initialValues: Object.fromEntries(fields.map((field) => [field.name, initialValue(field, record)])),
    validate: (values) => {
      const { body, errors } = toBody(fields, values);
      return { ...resolve(body), ...errors };
    },
    validateInputOnBlur: true,
    onValuesChange: () => options.onDirty?.(form.isDirty()),
  });
  return {
    form,
    /** The JSON rule of a field, for its editor. */
    ruleOf: (field: FieldDeclaration) => {
      const property = specOf[field.name];
      return property && field.input === 'json' ? fieldRule(property) : null;
    },
    formatOf: (field: FieldDeclaration) => specOf[field.name]?.format,
    /** Every value (create), or those changed (update), as the engine takes them. */
    bodyOf: (values: FormValues, changedOnly: boolean) =>
      toBody(changedOnly ? fields.filter((field) => form.isDirty(field.name)) : fields, values).body,
  };
}
