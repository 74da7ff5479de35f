/**
 * A 1,000,000-row file: read and validated in the worker while the engine's thread stays responsive, then paged
 * from SQLite. (Peak memory of the same work in a fresh process is the `invite.peak_rss_mb_1m` benchmark.)
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { expect, it } from 'vitest';
import { tempDir } from '../helpers/temp';
import { engineFor, sandboxWithInvitations } from './setup';

const ROWS = 1_000_000;

it('reads a million rows with bounded work on the engine thread, and pages them', async () => {
  const path = join(tempDir(), 'million.csv');
  const out = createWriteStream(path);
  out.write('Email,First name\n');
  for (let i = 0; i < ROWS; i++) {
    const line = i === 765_432 ? 'not-an-address,Broken\n' : `m${i}@example.org,N${i}\n`;
    if (!out.write(line)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');

  const server = await sandboxWithInvitations();
  const { engine } = await engineFor(server);
  const draft = await engine.invoke('invitations.importOpen', { path });
  const delay = monitorEventLoopDelay({ resolution: 20 });
  delay.enable();
  const states = new Set<string>();
  const stop = engine.onEvent((name, payload) => {
    if (name === 'invitations.importChanged') states.add((payload as { state: string }).state);
  });
  await engine.invoke('invitations.importParse', { id: draft.id, wait: true });
  delay.disable();
  stop();
  const parsed = await engine.invoke('invitations.importGet', { id: draft.id });
  expect(parsed.state).toBe('parsed');
  expect(parsed.summary).toMatchObject({ rows: ROWS, ok: ROWS - 1, invalid: 1 });
  expect(parsed.progress.rows).toBe(ROWS);
  expect(states.has('parsing')).toBe(true);
  // The rows were read on another thread: this one kept answering (generous bound for a loaded machine).
  expect(delay.max / 1e6).toBeLessThan(1500);

  const problems = await engine.invoke('invitations.importRows', { id: draft.id, filter: 'problems' });
  expect(problems.rows.map((r) => r.line)).toEqual([765_434]);
  const tail = await engine.invoke('invitations.importRows', { id: draft.id, offset: ROWS - 2, limit: 5 });
  expect(tail.rows.map((r) => r.values.email)).toEqual([`m${ROWS - 2}@example.org`, `m${ROWS - 1}@example.org`]);
}, 240_000);
