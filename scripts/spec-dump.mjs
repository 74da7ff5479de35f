// Prints spec fragments while implementing the sandbox: `node scripts/spec-dump.mjs s SchemaName` or `p /api/path/`.
import { readFileSync } from 'node:fs';
import YAML from 'yaml';
const spec = YAML.parse(readFileSync('node_modules/@iblai/iblai-api/sdk_schema.yml', 'utf8'));
const [kind, ...names] = process.argv.slice(2);
for (const n of names) {
  if (kind === 's') console.log(n, JSON.stringify(spec.components.schemas[n], null, 0));
  else { const p = spec.paths[n]; console.log(n, JSON.stringify(p, (k, v) => (k === 'description' && typeof v === 'string' ? v.slice(0, 80) : v), 0).slice(0, 3000)); }
}
