/**
 * The people-file import job resumed after SIGKILL where its kind sends one request a row (enrolments): the rows a
 * killed run had in flight are marked in the job's params, so the next run sends again at most that batch, never a
 * row the first run settled, and every row ends enrolled once. (The bulk kinds' kill is in
 * tests/resources/members-import.test.ts.)
 */
import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { catalogueArea } from '../../src/server/areas/catalogue';
import { invitationsArea } from '../../src/server/areas/invitations';
import { sandbox } from '../helpers/sandbox';
import { cliTenant, csvFile } from '../invitations/setup';

const ROWS = 900;
/** Rows a per-row kind marks in flight at once (catalogue/enrol-import.ts). */
const ENROL_BATCH = 200;
const PROGRAM = 'health-professions';
const last = (stdout: string) => JSON.parse(stdout.trim().split('\n').pop()!) as Record<string, unknown>;

let server: Sandbox;

beforeAll(async () => {
  server = await sandbox({ seed: 'demo', areas: [invitationsArea, catalogueArea] });
  const insert = server.db.prepare(
    `INSERT INTO users (username, email, org, role, date_joined) VALUES (?, ?, ?, 'student', '2026-01-01T00:00:00Z')`,
  );
  server.db.transaction(() => {
    for (let i = 0; i < ROWS; i++) insert.run(`resume${i}`, `resume${i}@example.edu`, server.org);
  })();
});

const enrolled = () =>
  server.db
    .prepare(
      `SELECT count(*) FROM catalog_enrollments e JOIN users u ON u.id = e.user_id
       WHERE e.kind = 'program' AND e.target = ? AND u.username LIKE 'resume%'`,
    )
    .pluck()
    .get(`${server.org}+${PROGRAM}`) as number;

/** A proxy that counts the enrolment POSTs, and calls `after` once each has been answered. */
async function enrolProxy(target: string, after: (posts: number) => void) {
  let posts = 0;
  const read = (req: IncomingMessage) =>
    new Promise<Buffer>((resolve) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => resolve(Buffer.concat(chunks)));
    });
  const proxy = createServer((req, res) => {
    void (async () => {
      const body = await read(req);
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (typeof value === 'string' && !['host', 'connection', 'content-length'].includes(name))
          headers.set(name, value);
      }
      const enrol = req.method === 'POST' && req.url?.startsWith('/api/catalog/enrollment/programs/');
      const answer = await fetch(`${target}${req.url}`, {
        method: req.method,
        headers,
        ...(body.length ? { body } : {}),
      });
      const text = await answer.text();
      if (enrol) after(++posts);
      res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
      res.end(text);
    })().catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    posts: () => posts,
    close: () =>
      new Promise<void>((resolve) => {
        proxy.closeAllConnections();
        proxy.close(() => resolve());
      }),
  };
}

describe('an enrolment file killed and resumed', () => {
  let proxy: Awaited<ReturnType<typeof enrolProxy>> | undefined;
  afterAll(async () => proxy?.close());

  it('killed with SIGKILL mid-file, then run again: every row enrolled once, only the batch in flight sent again', async () => {
    let kill: () => void = () => {};
    proxy = await enrolProxy(server.url, (posts) => {
      if (posts === ENROL_BATCH + 50) kill();
    });
    const tenant = await cliTenant(server, proxy.url);
    const file = csvFile(
      'resume-enrol.csv',
      `Email,Program\n${Array.from({ length: ROWS }, (_, i) => `resume${i}@example.edu,${PROGRAM}`).join('\n')}\n`,
    );
    const run = () =>
      new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, ['bin/mentor-admin.mjs', 'import', 'enrollments', file, '--json'], {
          env: tenant.env,
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk) => (stdout += chunk));
        child.stderr.on('data', (chunk) => (stderr += chunk));
        kill = () => child.kill('SIGKILL');
        child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
      });

    const first = await run();
    expect(first.signal, first.stderr).toBe('SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 500));
    const sentBefore = proxy.posts();
    expect(sentBefore).toBeGreaterThanOrEqual(ENROL_BATCH + 50);
    expect(sentBefore).toBeLessThan(ROWS);

    kill = () => {};
    const second = await run();
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain('"resumed":true');
    // Every row enrolled by this import: the rows the first run settled stay settled, those it had in flight are sent
    // again and count as enrolled.
    expect(last(second.stdout)).toMatchObject({ rows: ROWS, added: ROWS, already: 0, unknown: 0, failed: 0 });
    expect(enrolled()).toBe(ROWS);
    // Sent again: at most the batch in flight when it died; the first batch, settled, was not.
    expect(proxy.posts() - ROWS).toBeLessThanOrEqual(ENROL_BATCH);
    expect(proxy.posts() - ROWS).toBeGreaterThan(0);
  }, 120_000);
});
