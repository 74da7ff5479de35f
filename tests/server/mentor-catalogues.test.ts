/**
 * Contract tests of the sandbox's mentor types and subjects: the two catalogues as the spec's lists, a mentor's
 * settings naming them by id and answering them as objects, an unknown id refused at its field.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { call, sandbox } from '../helpers/sandbox';
import { expectSpecValid } from '../helpers/spec';

let server: Sandbox;
let mentor: string;
const SPEC = '/api/ai-mentor/orgs/{org}/users/{user_id}';
const path = (rest: string, org = server.org, user = server.user) => `/api/ai-mentor/orgs/${org}/users/${user}/${rest}`;

beforeAll(async () => {
  server = await sandbox();
  const made = await call(server, 'POST', path(''), { json: { name: 'Catalogued Mentor' } });
  mentor = String((made.body as { unique_id: string }).unique_id);
});

describe('sandbox: mentor types and subjects', () => {
  it('lists both catalogues as the spec describes them', async () => {
    for (const [rest, first] of [
      ['mentor-types/', { id: 1, name: 'Tutor', description: 'Academic tutor' }],
      ['subjects/', { id: 1, name: 'Mathematics', description: 'Mathematical subjects' }],
    ] as const) {
      const list = await call(server, 'GET', path(rest));
      expect(list.status).toBe(200);
      expectSpecValid('get', `${SPEC}/${rest}`, 200, list.body);
      expect((list.body as unknown[])[0]).toEqual(first);
    }
  });

  it('keeps the types and subjects a settings PUT names, answers them as objects, refuses an unknown id', async () => {
    const url = path(`mentors/${mentor}/settings/`);
    const saved = await call(server, 'PUT', url, { json: { types: [2], subjects: [1, 4] } });
    expect(saved.status).toBe(200);
    expectSpecValid('put', `${SPEC}/mentors/{mentor}/settings/`, 200, saved.body);
    const read = (await call(server, 'GET', url)).body as { types: { name: string }[]; subjects: { name: string }[] };
    expect(read.types.map((t) => t.name)).toEqual(['Coach']);
    expect(read.subjects.map((s) => s.name)).toEqual(['Mathematics', 'Computer science']);
    const unknown = await call(server, 'PUT', url, { json: { subjects: [99] } });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ subjects: ['Invalid pk "99" - object does not exist.'] });
  });

  it('answers another tenant’s key 404 on this tenant’s catalogue', async () => {
    expect((await call(server, 'GET', path('subjects/'), { key: server.otherOrg.apiKey })).status).toBe(404);
  });
});
