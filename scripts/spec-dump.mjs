// Prints spec fragments while implementing the sandbox: `node scripts/spec-dump.mjs s SchemaName` or `p /api/path/`.
import { readFileSync } from 'node:fs';
import YAML from 'yaml';

const spec = YAML.parse(readFileSync('node_modules/@iblai/iblai-api/sdk_schema.yml', 'utf8'));
const [kind, ...names] = process.argv.slice(2);
const shorten = (key, value) => (key === 'description' && typeof value === 'string' ? value.slice(0, 80) : value);
for (const name of names) {
  const fragment = kind === 's' ? spec.components.schemas[name] : spec.paths[name];
  process.stdout.write(`${name} ${JSON.stringify(fragment, kind === 's' ? null : shorten).slice(0, 20000)}\n`);
}
