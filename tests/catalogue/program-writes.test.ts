/**
 * Programs edited and deleted, and a pathway deleted, through the CLI's resource verbs against a real sandbox over
 * HTTP; the vendor SDK reads back what the app wrote. A program is listed by its numeric id but the platform's "add or
 * update" and its removal name it by its program_id (the operation's key field); a pathway is removed with its
 * owner's user_id, taken from its record.
 */
import { CatalogService, OpenAPI } from '@iblai/iblai-api';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { catalogueArea } from '../../src/server/areas/catalogue';
import { invitationsArea } from '../../src/server/areas/invitations';
import { learningArea } from '../../src/server/areas/learning';
import { cli } from '../helpers/cli';
import { call, sandbox } from '../helpers/sandbox';
import { cliTenant } from '../invitations/setup';

let server: Sandbox;
let env: NodeJS.ProcessEnv;
let dataDir: string;
const run = (args: string[]) => cli(['--data-dir', dataDir, ...args], { env });

interface Program {
  id: number;
  program_id: string;
  name: string;
  course_list: unknown[];
}

beforeAll(async () => {
  server = await sandbox({ seed: 'demo', areas: [invitationsArea, catalogueArea, learningArea] });
  ({ dataDir, env } = await cliTenant(server));
  OpenAPI.BASE = server.url;
  OpenAPI.HEADERS = { Authorization: `Api-Key ${server.apiKey}` };
});

async function listed(kind: string): Promise<Record<string, unknown>[]> {
  const list = await run(['get', kind, '--json']);
  expect(list.code, list.stderr).toBe(0);
  return list.lines;
}

describe('program writes', () => {
  it('edits a program by its listed id: sent by program_id with what it does not change, and the SDK reads it back', async () => {
    const before = (await CatalogService.catalogProgramsList({
      org: server.org,
      programId: 'data-science',
    })) as never as Program[];
    expect(before).toHaveLength(1);
    const record = (await listed('programs')).find((p) => p.program_id === 'data-science')!;
    expect(record.id).toBe(before[0]!.id);
    const updated = await run([
      'update',
      'programs',
      String(record.id),
      '--set',
      'name=Data Science Diploma',
      '--json',
    ]);
    expect(updated.code, updated.stderr).toBe(0);
    const after = (await CatalogService.catalogProgramsList({
      org: server.org,
      programId: 'data-science',
    })) as never as Program[];
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ id: before[0]!.id, name: 'Data Science Diploma' });
    // The courses it holds were sent as they were (the platform's call requires them).
    expect(after[0]!.course_list).toEqual(before[0]!.course_list);
  });

  it('deletes a program by its listed id; another tenant’s program of the same program_id stays', async () => {
    const theirs = await call(server, 'POST', '/api/catalog/programs/', {
      key: server.otherOrg.apiKey,
      json: { program_id: 'data-science', name: 'Theirs', org: server.otherOrg.org, course_list: [] },
    });
    expect(theirs.status, JSON.stringify(theirs.body)).toBe(201);
    const record = (await listed('programs')).find((p) => p.program_id === 'data-science')!;
    const deleted = await run(['delete', 'programs', String(record.id), '--yes']);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(await CatalogService.catalogProgramsList({ org: server.org, programId: 'data-science' })).toEqual([]);
    const still = await call(
      server,
      'GET',
      `/api/catalog/programs/?org=${server.otherOrg.org}&program_id=data-science`,
      {
        key: server.otherOrg.apiKey,
      },
    );
    expect((still.body as Program[]).map((p) => p.name)).toEqual(['Theirs']);
  });
});

describe('pathway delete', () => {
  it('removes a pathway with its owner’s user_id from its record; the SDK no longer finds it', async () => {
    const owner = server.db.prepare('SELECT id FROM users WHERE username = ?').pluck().get(server.user) as number;
    const made = await call(server, 'POST', '/api/catalog/pathways/', {
      json: { pathway_id: 'cli-path', name: 'CLI path', path: [], user_id: owner, platform_key: server.org },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const record = (await listed('pathways')).find((p) => p.pathway_id === 'cli-path')!;
    expect(record.user_id).toBe(owner);
    const deleted = await run(['delete', 'pathways', 'cli-path', '--yes']);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(await CatalogService.catalogPathwaysList({ platformKey: server.org, pathwayId: 'cli-path' })).toEqual([]);
  });
});
