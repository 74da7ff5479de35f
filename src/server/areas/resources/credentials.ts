/**
 * The tenant's credentials in the sandbox: LLM provider keys (`credential/`) and integration credentials
 * (`integration-credential/`), one per provider or service and tenant. As the platform's two views say: the masked
 * views (`masked-llm-credential/`, `masked-integration-credential/`) and the plain read answer every value entry
 * masked (the last four characters kept); a create or update echoes the value it was given, as the spec's examples
 * show. The schema views describe each provider's fields, so forms can be built from them.
 */
import type { Caller } from '../../auth';
import type { Db } from '../../db';
import { badRequest, fieldErrors, notFound } from '../../http/errors';
import type { RequestContext, Router } from '../../http/router';
import type { Backend } from './backends';

type Row = Record<string, unknown>;
export type CredentialKind = 'credential' | 'integration';

export const credentialSchema = `
CREATE TABLE IF NOT EXISTS credentials (
  org TEXT NOT NULL REFERENCES orgs(key),
  kind TEXT NOT NULL CHECK (kind IN ('credential', 'integration')),
  name TEXT NOT NULL,
  value TEXT NOT NULL CHECK (json_valid(value)),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (org, kind, name)
);
`;

interface Service {
  id: number;
  name: string;
  display_name: string;
  schema: Record<string, string>;
}

/** The providers and services the sandbox platform knows, with the fields each one's credential has. */
export const SERVICES: Record<CredentialKind, Service[]> = {
  credential: [
    { id: 1, name: 'openai', display_name: 'OpenAI', schema: { key: 'string' } },
    { id: 2, name: 'google', display_name: 'Google', schema: { key: 'string' } },
    { id: 3, name: 'anthropic', display_name: 'Anthropic', schema: { key: 'string' } },
    {
      id: 4,
      name: 'azure-openai',
      display_name: 'Azure OpenAI',
      schema: { key: 'string', endpoint: 'string', api_version: 'string' },
    },
  ],
  integration: [
    {
      id: 11,
      name: 'google-drive',
      display_name: 'Google Drive',
      schema: { type: 'string', project_id: 'string', private_key: 'string', client_email: 'string' },
    },
    { id: 12, name: 'slack', display_name: 'Slack', schema: { bot_token: 'string' } },
    { id: 13, name: 'github', display_name: 'GitHub', schema: { token: 'string' } },
  ],
};

const serviceInfo = (service: Service) => ({
  id: service.id,
  name: service.name,
  display_name: service.display_name,
  logo: null,
});

/** Every string in a value masked as the platform's masked views show it: stars, then the last four characters. */
export function maskSecret(value: unknown): unknown {
  if (typeof value === 'string')
    return value.length <= 4 ? '****' : `${'*'.repeat(Math.min(12, value.length - 4))}${value.slice(-4)}`;
  if (Array.isArray(value)) return value.map(maskSecret);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskSecret(v)]));
  }
  return value;
}

interface CredentialRow {
  name: string;
  value: string;
}

export function credentialBackend(db: Db, kind: CredentialKind): Backend & { describe(query: Row): Row[] } {
  const services = SERVICES[kind];
  const serviceOf = (name: string) => services.find((service) => service.name === name);
  const record = (org: string, row: CredentialRow, masked: boolean): Row => ({
    name: row.name,
    value: masked ? maskSecret(JSON.parse(row.value)) : (JSON.parse(row.value) as unknown),
    platform: org,
    service_info: serviceInfo(serviceOf(row.name) ?? { id: 0, name: row.name, display_name: row.name, schema: {} }),
  });
  const read = (org: string, name: string) =>
    db.prepare('SELECT name, value FROM credentials WHERE org = ? AND kind = ? AND name = ?').get(org, kind, name) as
      CredentialRow | undefined;
  const write = (org: string, name: string, value: unknown) => {
    const now = new Date().toISOString();
    db.prepare(
      `INSERT INTO credentials (org, kind, name, value, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (org, kind, name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
    ).run(org, kind, name, JSON.stringify(value ?? null), now, now);
  };
  return {
    auth: { read: 'admin', write: 'admin' },
    missing: 'Not found.',
    list: (org, query) => {
      const rows = db
        .prepare('SELECT name, value FROM credentials WHERE org = ? AND kind = ? ORDER BY name')
        .all(org, kind) as CredentialRow[];
      const named = typeof query.name === 'string' ? rows.filter((row) => row.name === query.name) : rows;
      if (typeof query.name === 'string' && !named.length) throw notFound('Not found.');
      return named.map((row) => record(org, row, true));
    },
    create: (org, _caller: Caller, body) => {
      const name = String(body.name);
      // The answer carries the provider's service_info: a name the platform has no service for is not a choice.
      if (!serviceOf(name)) {
        throw fieldErrors({ name: [`Select a valid choice. ${name} is not one of the available choices.`] });
      }
      if (read(org, name)) throw fieldErrors({ name: [`A credential named ${name} already exists for this tenant.`] });
      write(org, name, body.value);
      return { ...record(org, read(org, name)!, false) };
    },
    update: (org, id, body) => {
      const row = read(org, id);
      if (!row) return null;
      if ('value' in body) write(org, id, body.value);
      return record(org, read(org, id)!, false);
    },
    delete: (org, id) =>
      db.prepare('DELETE FROM credentials WHERE org = ? AND kind = ? AND name = ?').run(org, kind, id).changes > 0,
    describe: (query) => {
      const named = typeof query.name === 'string' ? services.filter((s) => s.name === query.name) : services;
      if (typeof query.name === 'string' && !named.length) throw notFound('Not found.');
      return named.map((service) => ({
        name: service.name,
        schema: service.schema,
        service_info: serviceInfo(service),
      }));
    },
  };
}

/**
 * The plain read (`credential/?name=`), which the app does not use (it reads the masked view): one provider at a
 * time, in the seed's words when the name is missing or unknown, its value masked.
 */
export function plainCredentialRead(db: Db, kind: CredentialKind, path: string, router: Router): void {
  const backend = credentialBackend(db, kind);
  router.get(
    path,
    (ctx: RequestContext) => {
      const name = ctx.query.get('name');
      if (!name) throw badRequest('Invalid data, credentials not found, or API error');
      let found: Row[];
      try {
        found = backend.list!(ctx.params.org!, { name });
      } catch {
        throw badRequest('Credentials not found or API error');
      }
      return { status: 200, body: found };
    },
    { auth: 'admin' },
  );
}

/** The demo tenant has an OpenAI key (a made-up one) and uses GPT-4o. */
export function seedCredentials(db: Db, org: string, now: string): void {
  db.prepare(
    `INSERT OR IGNORE INTO credentials (org, kind, name, value, created_at, updated_at) VALUES (?, 'credential', 'openai', ?, ?, ?)`,
  ).run(org, JSON.stringify({ key: 'sk-demo-northbridge-not-a-real-key-7f3a' }), now, now);
}
