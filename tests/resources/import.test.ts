/**
 * CSV import of resource kinds (`mentor-admin import KIND FILE.csv`, resources.import) against a real sandbox: the
 * shared pipeline's detection and column matching, rows checked against the spec's request schema, the job's
 * created / updated / unchanged outcomes by the kind's id, an injection-safe report, and a process killed with
 * SIGKILL in the middle of the file that, run again, resumes and sends nothing twice.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { RESOURCE_KINDS } from '../../src/shared/resources';
import { cli } from '../helpers/cli';
import { connect, failure } from '../helpers/engine';
import { sandbox } from '../helpers/sandbox';
import { tempDir } from '../helpers/temp';
import { cliTenant, csvFile } from '../invitations/setup';

const last = (stdout: string) => JSON.parse(stdout.trim().split('\n').pop()!) as Record<string, unknown>;
const lines = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

const domainsIn = (server: Sandbox, like: string) =>
  (
    server.db.prepare(`SELECT count(*) AS n FROM resource_store WHERE kind = 'domains' AND id LIKE ?`).get(like) as {
      n: number;
    }
  ).n;

let server: Sandbox;
let env: NodeJS.ProcessEnv;
beforeAll(async () => {
  server = await sandbox();
  ({ env } = await cliTenant(server));
});

describe('mentor-admin import KIND FILE.csv', () => {
  it('reads a semicolon file with a BOM, matches headers by synonym, names unknown columns, refuses bad rows, then creates once', async () => {
    const file = csvFile(
      'domains.csv',
      '\uFEFFWebsite;Enabled;Owner\n' +
        'https://one.example.edu;yes;Ann\n' +
        'https://two.example.edu;no;Bob\n' +
        'https://three.example.edu;maybe;Cy\n' +
        ';true;Dee\n' +
        'https://one.example.edu;yes;Ann again\n',
    );
    const dry = await cli(['import', 'domains', file, '--dry-run', '--json'], { env });
    expect(dry.code).toBe(1);
    const read = lines(dry.stdout);
    expect(read[0]).toMatchObject({
      event: 'read',
      encoding: 'utf-8',
      delimiter: ';',
      headerRow: 0,
      columns: [
        { header: 'Website', field: 'url' },
        { header: 'Enabled', field: 'is_active' },
        { header: 'Owner', field: null },
      ],
      unknownColumns: ['Owner'],
    });
    expect(dry.stdout).toContain('ignored: Owner.');
    expect(read.filter((line) => line.event === 'invalid')).toEqual([
      expect.objectContaining({ line: 4, problem: 'is_active: Must be a valid boolean.' }),
      expect.objectContaining({ line: 5, problem: 'url: This field is required.' }),
      expect.objectContaining({ line: 6, problem: 'url: The same url as line 2' }),
    ]);
    expect(last(dry.stdout)).toMatchObject({ job: null, rows: 5, created: 0, invalid: 3, dryRun: true, valid: 2 });
    expect(domainsIn(server, 'https://%.example.edu')).toBe(0);

    const first = await cli(['import', 'domains', file, '--json'], { env });
    expect(first.code).toBe(1);
    expect(last(first.stdout)).toEqual({
      job: expect.any(String),
      rows: 5,
      created: 2,
      updated: 0,
      unchanged: 0,
      invalid: 3,
      failed: 0,
    });
    const stored = server.db
      .prepare(`SELECT data FROM resource_store WHERE kind = 'domains' AND id LIKE 'https://%.example.edu' ORDER BY id`)
      .pluck()
      .all() as string[];
    expect(stored.map((text) => JSON.parse(text) as unknown)).toEqual([
      { url: 'https://one.example.edu', is_active: true },
      { url: 'https://two.example.edu', is_active: false },
    ]);

    // Again: the platform has both as the file says (the whitelist cannot be listed: it is asked, one by one).
    const again = await cli(['import', 'domains', file, '--json'], { env });
    expect(last(again.stdout)).toMatchObject({ created: 0, unchanged: 2, invalid: 3, failed: 0 });
    expect(domainsIn(server, 'https://%.example.edu')).toBe(2);

    // The list screen's copy has what the import created.
    const listed = await cli(['get', 'domains', '--json'], { env });
    expect(listed.lines.map((record) => record.url)).toEqual(
      expect.arrayContaining(['https://one.example.edu', 'https://two.example.edu']),
    );
  });

  it('a domain the platform has with other values fails its row: the whitelist offers no way to change one', async () => {
    await cli(['import', 'domains', csvFile('a.csv', 'url,is_active\nhttps://flip.example.edu,true\n')], { env });
    const flipped = await cli(
      ['import', 'domains', csvFile('b.csv', 'url,is_active\nhttps://flip.example.edu,false\n'), '--json'],
      { env },
    );
    expect(flipped.code).toBe(1);
    expect(last(flipped.stdout)).toMatchObject({ created: 0, unchanged: 0, updated: 0, failed: 1 });
  });

  it('updates LTI keys by their id, creates those without one, and refuses an id the tenant does not have', async () => {
    const made = await cli(['create', 'lti-keys', '--set', 'name=Canvas', '--json'], { env });
    const id = String(made.lines[0]!.id);
    const file = csvFile('keys.csv', `ID,Key name\n${id},Canvas production\n,Moodle\n99999,Ghost\n`);
    const run = await cli(['import', 'lti-keys', file, '--json'], { env });
    expect(last(run.stdout)).toEqual({
      job: expect.any(String),
      rows: 3,
      created: 1,
      updated: 1,
      unchanged: 0,
      invalid: 1,
      failed: 0,
    });
    const names = server.db
      .prepare(`SELECT json_extract(data, '$.name') FROM resource_store WHERE kind = 'lti-keys'`)
      .pluck()
      .all();
    expect(names).toEqual(expect.arrayContaining(['Canvas production', 'Moodle']));
    expect(names).not.toContain('Ghost');
    const again = await cli(
      ['import', 'lti-keys', csvFile('keys2.csv', `ID,Name\n${id},Canvas production\n`), '--json'],
      {
        env,
      },
    );
    expect(last(again.stdout)).toMatchObject({ unchanged: 1, updated: 0, created: 0 });
  });

  it('writes a report with one line per row, its cells safe to open in a spreadsheet', async () => {
    const report = join(tempDir(), 'report.csv');
    const file = csvFile(
      'formula.csv',
      'url\n=HYPERLINK("http://evil.example")\nhttps://report.example.edu\nhttps://report.example.edu\n',
    );
    const run = await cli(['import', 'domains', file, '--report', report], { env });
    expect(run.code).toBe(1);
    const text = readFileSync(report, 'utf8');
    expect(text).toContain('row,id,result,message');
    expect(text).toContain(`2,"'=HYPERLINK(""http://evil.example"")",created,`);
    expect(text).toContain('3,https://report.example.edu,created,');
    expect(text).toContain('4,https://report.example.edu,invalid,url: The same url as line 3');
    expect(text).not.toMatch(/(^|,)=HYPERLINK/m);
  });

  it("reads a JSON cell of a list or object field as JSON (an LTI tool's deployment IDs), refusing one that is not", async () => {
    const file = csvFile(
      'lti-tools.csv',
      'title,issuer,client_id,auth_login_url,auth_token_url,tool_key,launch_gate,deployment_ids\n' +
        'Canvas,https://canvas.example.edu,c1,https://canvas.example.edu/login,https://canvas.example.edu/token,1,{},"[""1"", ""deployment-2""]"\n' +
        'Moodle,https://moodle.example.edu,c2,https://moodle.example.edu/login,https://moodle.example.edu/token,1,{},"[""1"", "\n',
    );
    const dry = await cli(['import', 'lti-tools', file, '--dry-run', '--json'], { env });
    const invalid = lines(dry.stdout).filter((line) => line.event === 'invalid');
    expect(invalid).toEqual([
      expect.objectContaining({ line: 3, problem: expect.stringMatching(/^deployment_ids: /) }),
    ]);
    expect(last(dry.stdout)).toMatchObject({ job: null, rows: 2, invalid: 1, dryRun: true, valid: 1 });
  });

  it('follows a job that waits for the tenant until it settles: how long it waits is the runner’s wait limit, not a variable of the command', async () => {
    const file = csvFile('waits.csv', 'url\nhttps://waits-one.example.edu\nhttps://waits-two.example.edu\n');
    server.setFaults('error5xx=1');
    // The variable the command used to read (and leave the job waiting after): it is no longer a limit of its own.
    const run = cli(['import', 'domains', file, '--json'], { env: { ...env, MENTOR_ADMIN_IMPORT_MAX_WAIT_S: '1' } });
    await new Promise((resolve) => setTimeout(resolve, 4000));
    server.setFaults('');
    const result = await run;
    expect(lines(result.stdout).some((line) => line.event === 'progress' && line.state === 'waiting')).toBe(true);
    expect(last(result.stdout)).toMatchObject({ created: 2, failed: 0 });
    expect(result.code).toBe(0);
    expect(domainsIn(server, 'https://waits-%.example.edu')).toBe(2);
  }, 60_000);

  it('usage: an unknown kind, a missing file, and `import FILE …` is still an invitations import', async () => {
    const unknown = await cli(['import', 'widgets', 'x.csv'], { env });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain(`Unknown kind 'widgets' (kinds: ${RESOURCE_KINDS.join(', ')})`);
    expect((await cli(['import', 'domains'], { env })).stderr).toContain('import needs a KIND and a FILE.csv');
    const missing = await cli(['import', 'domains', '/nonexistent/file.csv'], { env });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('There is no file at /nonexistent/file.csv');
    const invite = await cli(
      ['import', csvFile('people.csv', 'email\nimport-cli@example.org\n'), '--platform', '--dry-run', '--json'],
      {
        env,
      },
    );
    expect(invite.code, invite.stderr).toBe(0);
    expect(last(invite.stdout)).toMatchObject({ job: null, rows: 1, dryRun: true });
  });
});

describe('resources.import (the engine call the screen uses)', () => {
  it('reads pasted text with title lines, takes the admin’s header row, mapping, fixes and drops, and pages the rows', async () => {
    const { engine } = await connect(server, { key: 'env-only' });
    const text =
      'Exported from the old portal\n\nsite,on\nhttps://p1.example.edu,yes\nhttps://p2.example.edu,perhaps\n' +
      'https://p3.example.edu,no\nnot a domain at all,true\n';
    const first = await engine.invoke('resources.import', { kind: 'domains', text, name: 'pasted.csv' });
    expect(first).toMatchObject({ name: 'pasted.csv', headerRow: 2, headers: ['site', 'on'], mapping: ['url', null] });
    // "on" names nothing of the whitelist: it is said, and the admin chooses it for Active.
    expect(first.unknownColumns).toEqual(['on']);
    const chosen = await engine.invoke('resources.import', {
      kind: 'domains',
      text,
      headerRow: 2,
      mapping: ['url', 'is_active'],
      rows: { filter: 'invalid', offset: 0, limit: 10 },
    });
    expect(chosen.counts).toEqual({ rows: 4, valid: 3, invalid: 1, dropped: 0 });
    expect(chosen.rows).toEqual([
      {
        line: 5,
        values: { url: 'https://p2.example.edu', is_active: 'perhaps' },
        problems: [{ field: 'is_active', message: 'Must be a valid boolean.' }],
        dropped: false,
      },
    ]);
    const fixed = await engine.invoke('resources.import', {
      kind: 'domains',
      text,
      headerRow: 2,
      mapping: ['url', 'is_active'],
      fixes: [{ line: 5, field: 'is_active', value: 'yes' }],
      dropped: [7],
      rows: { filter: 'all', offset: 1, limit: 2 },
    });
    expect(fixed.counts).toEqual({ rows: 4, valid: 3, invalid: 0, dropped: 1 });
    expect(fixed.rowsTotal).toBe(4);
    expect(fixed.rows.map((row) => [row.line, row.values.is_active])).toEqual([
      [5, 'yes'],
      [6, 'no'],
    ]);
    expect(fixed.job).toBeNull();

    const refused = await failure(engine, 'resources.import', {
      kind: 'domains',
      text,
      mapping: ['url', 'url'],
    });
    expect(refused.message).toContain('url is chosen for two columns');
    const noneValid = await failure(engine, 'resources.import', {
      kind: 'domains',
      text: 'url,is_active\n,true\n',
      start: true,
    });
    expect(noneValid.message).toBe('No row is valid: fix or drop the rows with problems first.');
    const binary = await failure(engine, 'resources.import', { kind: 'domains', text: '\u0000\u0001binary' });
    expect(binary.message).toContain('binary data, not CSV text');
    // A new API token's key is shown once, to the call that creates it: an import would show it to no one.
    const tokens = await failure(engine, 'resources.import', { kind: 'api-tokens', text: 'name\nnightly-sync\n' });
    expect(tokens.message).toBe(
      "API tokens cannot be imported: the platform shows each new API token's key once, to the call that creates it, " +
        'and an import would show it to no one. Create them one at a time.',
    );
    expect(server.db.prepare("SELECT count(*) FROM api_keys WHERE name = 'nightly-sync'").pluck().get()).toBe(0);
    await engine.close();
  });
});

/** A loopback proxy that forwards everything and calls `after(n)` once the n-th POST to `path` got its answer. */
async function postProxy(target: string, path: string, after: (count: number) => void) {
  let count = 0;
  const read = (req: IncomingMessage) =>
    new Promise<Buffer>((resolve) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => resolve(Buffer.concat(chunks)));
    });
  const server = createServer((req, res) => {
    void (async () => {
      const body = await read(req);
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (typeof value === 'string' && !['host', 'connection', 'content-length'].includes(name))
          headers.set(name, value);
      }
      const answer = await fetch(`${target}${req.url}`, {
        method: req.method,
        headers,
        ...(body.length ? { body } : {}),
      });
      const text = await answer.text();
      if (req.method === 'POST' && req.url?.startsWith(path)) after(++count);
      res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
      res.end(text);
    })().catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    posts: () => count,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('crash and resume', () => {
  let proxy: Awaited<ReturnType<typeof postProxy>> | undefined;
  afterAll(async () => proxy?.close());

  it('killed with SIGKILL mid-file, then run again: resumes the job and creates each domain exactly once', async () => {
    const rows = 600;
    let kill: () => void = () => {};
    proxy = await postProxy(server.url, '/api/core/domains/whitelist/', (n) => {
      // The platform has the 150th domain; the process dies before it reads the answer.
      if (n === 150) kill();
    });
    const tenant = await cliTenant(server, proxy.url);
    const file = csvFile(
      'crash.csv',
      `url,is_active\n${Array.from({ length: rows }, (_, i) => `https://crash${i}.example.edu,true`).join('\n')}\n`,
    );
    const run = () =>
      new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, ['bin/mentor-admin.mjs', 'import', 'domains', file, '--json'], {
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
    // Requests the process had sent before it died still reach the platform.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const before = domainsIn(server, 'https://crash%.example.edu');
    expect(before).toBeGreaterThanOrEqual(150);
    expect(before).toBeLessThan(rows);
    const postsBefore = proxy.posts();

    kill = () => {};
    const second = await run();
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain('"resumed":true');
    // Every row created, none "unchanged": nothing the first run sent was sent again (a second POST of a domain
    // would be refused as existing, and counted unchanged).
    expect(last(second.stdout)).toEqual({
      job: expect.any(String),
      rows,
      created: rows,
      updated: 0,
      unchanged: 0,
      invalid: 0,
      failed: 0,
    });
    expect(domainsIn(server, 'https://crash%.example.edu')).toBe(rows);
    expect(proxy.posts()).toBe(postsBefore + (rows - before));
  }, 90_000);
});
