import { schemaResolver, type FormErrors, type UseFormReturnType } from '@mantine/form';
import { BridgeCallError } from '../../shared/contract';
import { errorMessage } from '../bridge/errors';

/** The form field an issue's path (the contract's: `secret`, `filter.text`) belongs to; undefined when none. */
export type FieldOf = (path: string) => string | undefined;

/** The field named by a path's first segment, when the form has one by that name. */
export const topLevelField =
  (fields: readonly string[]): FieldOf =>
  (path) => {
    const head = path.split('.')[0] ?? '';
    return fields.includes(head) ? head : undefined;
  };

type Schema = Parameters<typeof schemaResolver>[0];

/**
 * A form's check before it sends anything: the contract's own schema over exactly what Save would send, so a
 * message is the engine's word for word and no rule is added. Issues on paths the form has no field for are left to
 * the engine, whose answer shows them in the form's alert as before.
 */
export function contractResolver<Values>(schema: Schema, toInput: (values: Values) => unknown, fieldOf: FieldOf) {
  const resolve = schemaResolver(schema, { sync: true });
  return (values: Values): FormErrors => {
    const errors: FormErrors = {};
    for (const [path, message] of Object.entries(resolve(toInput(values)))) {
      const field = fieldOf(path);
      if (field && !(field in errors)) errors[field] = message;
    }
    return errors;
  };
}

/**
 * A failed save as the form shows it: each validation issue under the field it names (the first one each), and the
 * rest — other issues, or any other error — returned as one message for the form's alert (null when none is left).
 */
export function showSaveError(
  form: Pick<UseFormReturnType<unknown>, 'setErrors'>,
  error: unknown,
  fieldOf: FieldOf,
): string | null {
  if (!(error instanceof BridgeCallError && error.code === 'validation' && error.issues?.length)) {
    return errorMessage(error);
  }
  const errors: FormErrors = {};
  const other: string[] = [];
  for (const issue of error.issues) {
    const field = fieldOf(issue.path);
    if (field === undefined) other.push(issue.path ? `${issue.path}: ${issue.message}` : issue.message);
    else if (!(field in errors)) errors[field] = issue.message;
  }
  form.setErrors(errors);
  return other.length ? other.join('\n') : null;
}

/** The named fields the admin changed: an edit sends only these, so it never rewrites what it did not touch. */
export function changedValues<Values extends object, Name extends keyof Values & string>(
  form: Pick<UseFormReturnType<Values>, 'isDirty' | 'getValues'>,
  names: readonly Name[],
): Partial<Pick<Values, Name>> {
  const values = form.getValues();
  return Object.fromEntries(names.filter((name) => form.isDirty(name)).map((name) => [name, values[name]])) as Partial<
    Pick<Values, Name>
  >;
}
