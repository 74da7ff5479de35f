/**
 * The demo sandbox's program licences name programs its catalogue lists (issue 17): a licence's `program_key` is one
 * of the keys `/api/catalog/programs/` answers for the same tenant, read over HTTP as the app reads them.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { call, sandbox } from '../helpers/sandbox';

let server: Sandbox;

beforeAll(async () => {
  server = await sandbox({ seed: 'demo' });
});

describe('demo program licences', () => {
  it('every program licence names a program of the tenant’s catalogue', async () => {
    const licences = await call(server, 'GET', `/api/catalog/licenses/program/?platform_key=${server.org}`);
    expect(licences.status).toBe(200);
    const keys = (licences.body as { results: { program_key?: string }[] }).results.map((l) => l.program_key);
    expect(keys.length).toBeGreaterThan(0);
    const programs = await call(server, 'GET', `/api/catalog/programs/?org=${server.org}`);
    expect(programs.status).toBe(200);
    const body = programs.body as { program_key: string }[] | { results: { program_key: string }[] };
    const listed = new Set((Array.isArray(body) ? body : body.results).map((p) => p.program_key));
    expect(listed.size).toBeGreaterThan(0);
    for (const key of keys) expect(listed, `program ${String(key)}`).toContain(key);
  });
});
