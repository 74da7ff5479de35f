/**
 * The platform's description of a kind's form fields (the credential schema endpoints): one entry per provider or
 * service, `{name, schema: {field: type}, service_info: {display_name}}`, read into the contract's choices. A schema
 * written as JSON Schema (`{properties: {…}}`) is read too; the spec types `schema` as any value.
 */
import type { DescribedChoice } from '../../../shared/contract';

export type { DescribedChoice };

type Row = Record<string, unknown>;
const isObject = (value: unknown): value is Row => !!value && typeof value === 'object' && !Array.isArray(value);

export function describedChoices(rows: readonly Row[]): DescribedChoice[] {
  const choices: DescribedChoice[] = [];
  for (const row of rows) {
    if (typeof row.name !== 'string' || !row.name) continue;
    const schema = isObject(row.schema) ? row.schema : {};
    const properties = isObject(schema.properties) ? schema.properties : schema;
    const fields = Object.entries(properties).map(([name, type]) => ({
      name,
      type: typeof type === 'string' ? type : isObject(type) && typeof type.type === 'string' ? type.type : 'string',
    }));
    const info = isObject(row.service_info) ? row.service_info : {};
    const label = typeof info.display_name === 'string' && info.display_name ? info.display_name : row.name;
    choices.push({ name: row.name, label, fields });
  }
  return choices.sort((a, b) => a.label.localeCompare(b.label));
}
