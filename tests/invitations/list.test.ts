/** The Invitations screen's calls against the sandbox: list with filters and paging, invite one person, revoke. */
import { describe, expect, it } from 'vitest';
import { bulkProxy } from './proxy';
import { csvFile, engineFor, invitationsOf, readyImport, sandboxWithInvitations, settledJob } from './setup';

describe('invitations', () => {
  it('lists newest first, filters by active, email and source, and pages', async () => {
    const server = await sandboxWithInvitations();
    const { engine } = await engineFor(server);
    const all = await engine.invoke('invitations.list', { target: { kind: 'platform' }, pageSize: 10 });
    expect(all.total).toBeGreaterThan(10);
    expect(all.invitations).toHaveLength(10);
    const ids = all.invitations.map((i) => i.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const page2 = await engine.invoke('invitations.list', { target: { kind: 'platform' }, pageSize: 10, page: 2 });
    expect(page2.invitations[0]!.id).toBeLessThan(ids[9]!);

    const inactive = await engine.invoke('invitations.list', {
      target: { kind: 'platform' },
      active: false,
      pageSize: 100,
    });
    expect(inactive.invitations.every((i) => !i.active && i.state !== 'pending')).toBe(true);

    const created = await engine.invoke('invitations.create', {
      target: { kind: 'platform' },
      email: 'single@example.org',
      firstName: 'Sol',
      redirectTo: 'https://learn.example.org/',
    });
    expect(created).toMatchObject({ email: 'single@example.org', state: 'pending', active: true, source: server.user });
    const byEmail = await engine.invoke('invitations.list', {
      target: { kind: 'platform' },
      email: 'single@example.org',
    });
    expect(byEmail.invitations.map((i) => i.id)).toEqual([created.id]);
    const bySource = await engine.invoke('invitations.list', {
      target: { kind: 'platform' },
      source: server.user,
      pageSize: 100,
    });
    expect(bySource.invitations.some((i) => i.id === created.id)).toBe(true);

    await expect(
      engine.invoke('invitations.create', { target: { kind: 'platform' }, email: 'single@example.org' }),
    ).rejects.toThrow('single@example.org is already invited');
    await expect(engine.invoke('invitations.create', { target: { kind: 'platform' }, email: 'nope' })).rejects.toThrow(
      'Not a valid email address',
    );

    await engine.invoke('invitations.revoke', { target: { kind: 'platform' }, id: created.id });
    expect(invitationsOf(server, 'single@example.org')).toBe(0);
    await expect(engine.invoke('invitations.revoke', { target: { kind: 'platform' }, id: created.id })).rejects.toThrow(
      'That invitation no longer exists',
    );
  });

  it("searches part of an address or a name in the app's copy (the platform filters exactly), and says so", async () => {
    const server = await sandboxWithInvitations();
    const { engine } = await engineFor(server);
    const target = { kind: 'platform' } as const;
    const bulk = (rows: Record<string, unknown>[]) =>
      fetch(`${server.url}/api/catalog/invitations/platform/bulk/`, {
        method: 'POST',
        headers: { authorization: `Api-Key ${server.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ platform_key: server.org, invitation_data: rows }),
      });
    await bulk([{ email: 'zeph.okoro@partner.example', first_name: 'Zephyrine', last_name: 'Okoro', source: 's1' }]);

    // The platform's own filter matches whole addresses only.
    expect((await engine.invoke('invitations.list', { target, email: 'zeph' })).total).toBe(0);

    const byName = await engine.invoke('invitations.list', { target, search: 'okoro' });
    expect(byName.invitations.map((i) => [i.email, i.name])).toEqual([
      ['zeph.okoro@partner.example', 'Zephyrine Okoro'],
    ]);
    expect(byName.freshness).toMatchObject({ source: 'cache', offline: null });
    expect(Date.now() - Date.parse(byName.freshness.asOf!)).toBeLessThan(30_000);
    expect((await engine.invoke('invitations.list', { target, search: 'ZEPH.OK' })).total).toBe(1);
    // The demo's 500 invitations are all in the copy: a common part of addresses finds them across pages.
    const demo = await engine.invoke('invitations.list', { target, search: '.example', pageSize: 100, page: 2 });
    expect(demo.total).toBeGreaterThan(100);
    expect(demo.invitations).toHaveLength(100);

    // Made elsewhere: found once the copy is read again (it is, when older than a minute or on refresh).
    await bulk([{ email: 'zeph.two@partner.example', source: 's2' }]);
    expect((await engine.invoke('invitations.list', { target, search: 'zeph' })).total).toBe(1);
    const fresh = await engine.invoke('invitations.list', { target, search: 'zeph', refresh: true });
    expect(fresh.invitations.map((i) => i.email)).toEqual(['zeph.two@partner.example', 'zeph.okoro@partner.example']);
    expect((await engine.invoke('invitations.list', { target, search: 'zeph', source: 's2' })).total).toBe(1);

    // Revoked here: gone from the copy at once.
    await engine.invoke('invitations.revoke', { target, id: fresh.invitations[0]!.id });
    expect((await engine.invoke('invitations.list', { target, search: 'zeph' })).total).toBe(1);
  });

  it('shows the saved copy, and says so, while the tenant cannot be reached', async () => {
    const server = await sandboxWithInvitations();
    const { engine } = await engineFor(server);
    const target = { kind: 'platform' } as const;
    const live = await engine.invoke('invitations.list', { target, pageSize: 10 });
    expect(live.freshness).toMatchObject({ source: 'api', offline: null });
    // The first list keeps a copy of the whole list in the background.
    await expect
      .poll(async () => (await engine.invoke('invitations.list', { target, search: '@' })).freshness.asOf, {
        timeout: 10_000,
      })
      .not.toBeNull();

    server.setFaults('error5xx=1');
    const offline = await engine.invoke('invitations.list', { target, pageSize: 10 });
    server.setFaults('');
    expect(offline.freshness.source).toBe('cache');
    expect(offline.freshness.offline).toMatch(
      /The tenant is not answering \(50\d .*\); showing what was saved earlier\./,
    );
    expect(offline.total).toBe(live.total);
    expect(offline.invitations.map((i) => i.id)).toEqual(live.invitations.map((i) => i.id));
  }, 30_000);

  it('names the state an admin reads: an expiry date passed is "expired", even when switched off', async () => {
    const server = await sandboxWithInvitations();
    const { engine } = await engineFor(server);
    const target = { kind: 'platform' } as const;
    const past = new Date(Date.now() - 86_400_000).toISOString();
    const future = new Date(Date.now() + 86_400_000).toISOString();
    await fetch(`${server.url}/api/catalog/invitations/platform/bulk/`, {
      method: 'POST',
      headers: { authorization: `Api-Key ${server.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        platform_key: server.org,
        invitation_data: [
          { email: 'st.revoked@example.org', active: false, expired: past },
          { email: 'st.off@example.org', active: false },
          { email: 'st.lapsed@example.org', expired: past },
          { email: 'st.waiting@example.org', expired: future },
        ],
      }),
    });
    const states = await engine.invoke('invitations.list', { target, search: 'st.', pageSize: 10 });
    expect(Object.fromEntries(states.invitations.map((i) => [i.email, i.state]))).toEqual({
      'st.revoked@example.org': 'expired',
      'st.off@example.org': 'inactive',
      'st.lapsed@example.org': 'expired',
      'st.waiting@example.org': 'pending',
    });
  });

  it('lists and revokes course invitations', async () => {
    const server = await sandboxWithInvitations();
    const { engine } = await engineFor(server);
    const { courses } = await engine.invoke('invitations.courses', {});
    const target = { kind: 'course' as const, id: courses[0]!.id };
    const created = await engine.invoke('invitations.create', { target, email: 'course-one@example.org' });
    expect(created.target).toEqual(target);
    const list = await engine.invoke('invitations.list', { target, email: 'course-one@example.org' });
    expect(list.total).toBe(1);
    await engine.invoke('invitations.revoke', { target, id: created.id });
    expect((await engine.invoke('invitations.list', { target, email: 'course-one@example.org' })).total).toBe(0);
  });

  it('remembers the column mapping per tenant', async () => {
    const server = await sandboxWithInvitations();
    const { engine } = await engineFor(server);
    const path = csvFile('a.csv', 'Primary contact,Badge name,Phone\nrem@example.org,Rem,1\n');
    const first = await engine.invoke('invitations.importOpen', { path });
    await engine.invoke('invitations.importConfigure', { id: first.id, mapping: ['email', 'first_name', null] });
    await engine.invoke('invitations.importParse', { id: first.id, wait: true });
    const second = await engine.invoke('invitations.importOpen', {
      path: csvFile('b.csv', 'Badge name,Primary contact\nX,x@example.org\n'),
    });
    expect(second.columns.map((c) => [c.header, c.field, c.remembered])).toEqual([
      ['Badge name', 'first_name', true],
      ['Primary contact', 'email', true],
    ]);
    await expect(
      engine.invoke('invitations.importConfigure', { id: second.id, mapping: ['email', 'email'] }),
    ).rejects.toThrow('Email is chosen for two columns: pick one');
  });

  it('shrinks chunks the platform finds too large (413) and still sends every row once', async () => {
    const server = await sandboxWithInvitations();
    const sizes: number[] = [];
    const proxy = await bulkProxy(server.url, async ({ rows }) => {
      sizes.push(rows);
      return rows > 30 ? { status: 413, body: { detail: 'Request body too large' } } : 'forward';
    });
    const { engine } = await engineFor(server, {}, proxy.url);
    const rows = Array.from({ length: 100 }, (_, i) => `big${i}@example.org`).join('\n');
    const draft = await readyImport(engine, csvFile('big.csv', `Email\n${rows}\n`));
    const { jobId } = await engine.invoke('invitations.importStart', { id: draft.id });
    const job = await settledJob(engine, jobId);
    expect(job.counts.invited).toBe(100);
    // Halved after each refusal (two chunks may be in flight at once), down to what the platform accepts.
    expect(sizes[0]).toBe(100);
    expect(sizes).toContain(50);
    expect(sizes).toContain(25);
    for (const i of [0, 50, 99]) expect(invitationsOf(server, `big${i}@example.org`)).toBe(1);
  });

  it('waits out "too many requests" that outlast the client\'s retries, then sends every row once', async () => {
    const server = await sandboxWithInvitations();
    let refused = 0;
    const proxy = await bulkProxy(server.url, async () => {
      // Six refusals in a row: more than the client's five attempts.
      if (refused < 6) {
        refused++;
        return { status: 429, headers: { 'retry-after': '0' }, body: { detail: 'Rate limit exceeded' } };
      }
      return 'forward';
    });
    const { engine } = await engineFor(server, {}, proxy.url);
    const rows = Array.from({ length: 20 }, (_, i) => `slow${i}@example.org`).join('\n');
    const draft = await readyImport(engine, csvFile('slow.csv', `Email\n${rows}\n`));
    const { jobId } = await engine.invoke('invitations.importStart', { id: draft.id });
    const job = await settledJob(engine, jobId);
    expect(job.state).toBe('completed');
    expect(job.counts.invited).toBe(20);
    expect(refused).toBe(6);
    for (const i of [0, 19]) expect(invitationsOf(server, `slow${i}@example.org`)).toBe(1);
  });
});
