/**
 * The seats tabs read every licence's seats a few at a time: counted at the sandbox (each request held 150 ms), the
 * reads overlap, never past the tenant's limit that its jobs share, and the seats still come in the licences' order;
 * when some licences' reads fail, the list fails with the first of them in that order (not the quickest to fail).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { connect } from '../helpers/engine';
import { sandbox } from '../helpers/sandbox';

let server: Sandbox;
const LICENCES = 8;
/** The job runner's default per-tenant limit (jobs/limiter.ts). */
const TENANT_LIMIT = 4;

beforeAll(async () => {
  server = await sandbox({ seed: 'demo' });
  const people = server.db
    .prepare("SELECT id FROM users WHERE org = ? AND role = 'student' ORDER BY id LIMIT ?")
    .pluck()
    .all(server.org, LICENCES) as number[];
  server.db.prepare("DELETE FROM licenses WHERE family = 'course'").run();
  const addLicence = server.db.prepare(
    `INSERT INTO licenses (org, name, count, started, created, family, course_id)
     VALUES (?, ?, 10, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', 'course', 'course-v1:main+PAR+2027')`,
  );
  const addSeat = server.db.prepare('INSERT INTO license_assignments (license_id, user_id) VALUES (?, ?)');
  for (let n = 0; n < LICENCES; n++) {
    const id = Number(addLicence.run(server.org, `Parallel ${n + 1}`).lastInsertRowid);
    addSeat.run(id, people[n]);
  }
});

describe('seats read per licence', () => {
  it('overlap within the tenant’s limit, in the licences’ order', async () => {
    const { engine, profileId } = await connect(server, { key: 'env-only' });
    const kind = 'course-license-assignments';
    server.setFaults('latency=150ms');
    server.takeLoad();
    const answer = await engine.invoke('resources.list', { profileId, kind, pageSize: 500, refresh: true });
    const { peakInFlight } = server.takeLoad();
    server.setFaults('');
    expect(answer.records).toHaveLength(LICENCES);
    // One after another would have held one request at a time.
    expect(peakInFlight).toBeGreaterThanOrEqual(3);
    expect(peakInFlight).toBeLessThanOrEqual(TENANT_LIMIT);
    // The licence list answers newest first: the seats follow it.
    const names = answer.records.map((seat) => String(seat.license_name));
    const parents = await engine.invoke('resources.list', { profileId, kind: 'course-licenses', pageSize: 500 });
    expect(names).toEqual(parents.records.map((licence) => String(licence.name)));
  });

  it('fails with the first failed licence’s error in the licences’ order, not the quickest one', async () => {
    const { engine, profileId } = await connect(server, { key: 'env-only' });
    const addLicence = server.db.prepare(
      `INSERT INTO licenses (org, name, count, started, created, family, program_key)
       VALUES (?, ?, 10, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', 'program', 'program-v1:main+ERR')`,
    );
    const seat = server.db.prepare('INSERT INTO license_assignments (license_id, user_id, metadata) VALUES (?, ?, ?)');
    const person = server.db.prepare("SELECT id FROM users WHERE org = ? AND role = 'student' LIMIT 1").pluck();
    const someone = person.get(server.org) as number;
    // Listed newest first: "Late" comes first. Its seats answer 500 (retried before it fails); "Early"'s answer breaks
    // the spec at once (an email that is no email).
    const early = Number(addLicence.run(server.org, 'Early').lastInsertRowid);
    const bad = Number(
      server.db
        .prepare(
          `INSERT INTO users (username, email, org, role, date_joined) VALUES ('no-mail', 'not an email', ?, 'student', '2026-01-01T00:00:00Z')`,
        )
        .run(server.org).lastInsertRowid,
    );
    seat.run(early, bad, '{}');
    const late = Number(addLicence.run(server.org, 'Late').lastInsertRowid);
    seat.run(late, someone, 'not json');
    const failed = engine.invoke('resources.list', { profileId, kind: 'program-license-assignments', pageSize: 500 });
    await expect(failed).rejects.toMatchObject({ message: expect.not.stringContaining('does not match its spec') });
    await expect(failed).rejects.toMatchObject({ message: expect.stringMatching(/500|server error/i) });
  });
});
