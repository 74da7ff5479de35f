/**
 * The licence seat kinds' lists (the Licences area's seats tabs, `get license-assignments`): the platform lists seats
 * per licence only, so the kit reads every licence's (listEach) and each seat names its licence — the seats the
 * tenant holds, not only those this app gave; read again from the saved copy when the tenant cannot be reached.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { SEAT_KINDS, type SeatKind } from '../../src/shared/resources';
import { connect } from '../helpers/engine';
import { sandbox } from '../helpers/sandbox';
import { switchableProxy } from '../helpers/switchable-proxy';

let server: Sandbox;

const FAMILY: Record<SeatKind, string> = {
  'license-assignments': 'user',
  'course-license-assignments': 'course',
  'program-license-assignments': 'program',
};

/** Every active seat of the family in the sandbox, as `email @ licence name`. */
function heldInSandbox(family: string): string[] {
  const rows = server.db
    .prepare(
      `SELECT u.email AS email, l.name AS licence FROM license_assignments a
         JOIN users u ON u.id = a.user_id JOIN licenses l ON l.id = a.license_id
         WHERE l.org = ? AND l.family = ?
       UNION ALL
       SELECT e.email, l.name FROM license_email_seats e JOIN licenses l ON l.id = e.license_id
         WHERE l.org = ? AND l.family = ?`,
    )
    .all(server.org, family, server.org, family) as { email: string; licence: string }[];
  return rows.map((row) => `${row.email} @ ${row.licence}`).sort();
}

beforeAll(async () => {
  server = await sandbox({ seed: 'demo' });
  // Seats given outside this app, on two licences of each family: the lists must show them all.
  const student = server.db.prepare("SELECT id FROM users WHERE org = ? AND role = 'student' ORDER BY id LIMIT 4");
  const people = (student.all(server.org) as { id: number }[]).map((row) => row.id);
  const addLicence = server.db.prepare(
    `INSERT INTO licenses (org, name, count, started, created, family, course_id, program_key)
     VALUES (?, ?, 10, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', ?, ?, ?)`,
  );
  const addSeat = server.db.prepare('INSERT INTO license_assignments (license_id, user_id) VALUES (?, ?)');
  for (const family of Object.values(FAMILY)) {
    for (const [n, holders] of [people.slice(0, 3), people.slice(2)].entries()) {
      const item = [
        family === 'course' ? 'course-v1:main+SEAT+2027' : null,
        family === 'program' ? 'program-v1:main+S' : null,
      ];
      const id = Number(addLicence.run(server.org, `${family} seats ${n + 1}`, family, ...item).lastInsertRowid);
      for (const person of holders) addSeat.run(id, person);
    }
  }
});

describe('licence seat lists', () => {
  for (const kind of SEAT_KINDS) {
    it(`${kind}: lists every licence's seats from the platform, each naming its licence`, async () => {
      const { engine, profileId } = await connect(server, { key: 'env-only' });
      const expected = heldInSandbox(FAMILY[kind]);
      expect(expected.length).toBeGreaterThanOrEqual(5);
      const answer = await engine.invoke('resources.list', { profileId, kind, pageSize: 500 });
      expect(answer.listed).toBe(true);
      expect(answer.freshness.source).toBe('api');
      const listed = answer.records.map((seat) => `${String(seat.email)} @ ${String(seat.license_name)}`).sort();
      expect(listed).toEqual(expected);
      for (const seat of answer.records) expect(typeof seat.license_id).toBe('number');

      // The kit's search reaches the licence's name.
      const found = await engine.invoke('resources.list', { profileId, kind, search: `${FAMILY[kind]} seats 2` });
      expect(found.records.length).toBe(expected.filter((seat) => seat.endsWith(`${FAMILY[kind]} seats 2`)).length);
    });
  }

  it('shows the saved seats, with a note, when the tenant cannot be reached', async () => {
    const proxy = await switchableProxy({ port: Number(new URL(server.url).port) });
    const { engine, profileId } = await connect(server, { key: 'env-only', baseUrl: proxy.url });
    const kind = 'license-assignments';
    const first = await engine.invoke('resources.list', { profileId, kind, pageSize: 500 });
    proxy.down();
    const again = await engine.invoke('resources.list', { profileId, kind, pageSize: 500, refresh: true });
    expect(again.freshness.offline).toBeTruthy();
    expect(again.records.length).toBe(first.records.length);
    proxy.up();
  });
});
