/**
 * A change to many of a job's items touches exactly those items, whether their ids run on without a gap (changed by
 * range) or are scattered (changed through one JSON list), and never another job's items between them.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { idRuns, JobJournal } from '../../src/main/engine/jobs/journal';
import { openDatabase, type Db } from '../../src/main/engine/store/database';
import { tempDir } from '../helpers/temp';

let dbs: Db[] = [];
afterEach(() => {
  dbs.forEach((db) => db.close());
  dbs = [];
});

function twoJobs() {
  const db = openDatabase(join(tempDir(), 'app.sqlite'));
  dbs.push(db);
  const journal = new JobJournal(db);
  const items = (prefix: string) =>
    Array.from({ length: 30 }, (_, i) => ({ key: `${prefix}${i}`, label: `${prefix}${i}`, data: { i } }));
  const a = journal.create({ kind: 'resource-members', profileId: null, title: 'A', params: {}, items: items('a') });
  const b = journal.create({ kind: 'resource-members', profileId: null, title: 'B', params: {}, items: items('b') });
  const ids = (job: string) => journal.itemsIn(job, ['pending']).map((item) => item.id);
  const done = (job: string) => journal.itemsIn(job, ['done']).map((item) => item.id);
  return { journal, a, b, ids, done };
}

describe('journal.updateItems', () => {
  it('ids in runs are changed by range: exactly them, with the change asked for', () => {
    const { journal, a, b, ids, done } = twoJobs();
    const [of, other] = [ids(a), ids(b)];
    const chosen = [...of.slice(2, 12), ...of.slice(20, 25)];
    expect(idRuns(chosen)).toEqual([
      [of[2], of[11]],
      [of[20], of[24]],
    ]);
    journal.updateItems(chosen, { state: 'done', phase: 'added' });
    expect(done(a)).toEqual(chosen);
    expect(done(b)).toEqual([]);
    expect(journal.item(of[2]!)).toMatchObject({ state: 'done', phase: 'added' });
    expect(journal.item(of[12]!)).toMatchObject({ state: 'pending', phase: '' });
    expect(ids(b)).toEqual(other);
  });

  it('scattered ids (more runs than ranges are worth) are changed through one list: exactly them', () => {
    const { journal, a, b, ids, done } = twoJobs();
    const scattered = ids(a).filter((_, i) => i % 2 === 0);
    expect(idRuns(scattered).length).toBe(15);
    journal.updateItems(scattered, { state: 'done' });
    expect(done(a)).toEqual(scattered);
    expect(done(b)).toEqual([]);
  });

  it('a param removed is gone; the others stay', () => {
    const { journal, a } = twoJobs();
    journal.setParam(a, 'sending_1', [[1, 5]]);
    journal.setParam(a, 'kept', true);
    journal.removeParam(a, 'sending_1');
    expect(JSON.parse(journal.job(a)!.params)).toEqual({ kept: true });
  });
});

describe('journal.settleItems', () => {
  it('settles runs of items with one write each: every read of the job sees them settled, its rows and other jobs untouched', () => {
    const { journal, a, b, ids, done } = twoJobs();
    const of = ids(a);
    const other = ids(b);
    const batch = of.slice(0, 20);
    // A batch's exceptions are written on their rows; the rest of it is settled by run.
    journal.updateItems([batch[5]!], { state: 'skipped', phase: 'unknown', data: { message: 'No person' } });
    journal.settleItems(a, [...batch.slice(0, 5), ...batch.slice(6)], { state: 'done', phase: 'added' });

    const added = batch.filter((_, i) => i !== 5);
    expect(done(a)).toEqual(added);
    expect(ids(a)).toEqual(of.slice(20));
    expect(journal.workIn(a, ['pending', 'active']).map((item) => item.id)).toEqual(of.slice(20));
    expect(journal.itemsIn(a, ['skipped']).map((item) => item.id)).toEqual([batch[5]]);
    expect(journal.totals(a)).toMatchObject({ total: 30, done: 19, skipped: 1, failed: 0, active: 0 });
    expect(journal.item(batch[0]!)).toMatchObject({ state: 'done', phase: 'added' });
    expect(journal.itemByKey(a, 'a5')).toMatchObject({ state: 'skipped', phase: 'unknown' });
    expect(journal.item(of[20]!)).toMatchObject({ state: 'pending', phase: '' });
    const page = journal.items(a, { states: ['done'], limit: 5, offset: 15 });
    expect(page.total).toBe(19);
    expect(page.rows.map((row) => [row.id, row.state, row.phase])).toEqual(
      added.slice(15).map((id) => [id, 'done', 'added']),
    );
    expect(journal.items(a, { limit: 30, offset: 0 }).rows.map((row) => row.state)).toEqual([
      ...Array(5).fill('done'),
      'skipped',
      ...Array(14).fill('done'),
      ...Array(10).fill('pending'),
    ]);
    expect(journal.pendingPage(a, { excluding: [], limit: 100, detail: [] }).map((row) => row.id)).toEqual(
      of.slice(20),
    );
    expect(journal.itemsByKeyPrefix(a, 'a1').filter((row) => row.state === 'done')).toHaveLength(11); // a1, a10–a19
    // The other job, whose ids lie beside these, reads as it was.
    expect(ids(b)).toEqual(other);
    expect(journal.totals(b)).toMatchObject({ total: 30, done: 0 });
  });

  it('an item left active by a crash and settled by a run reads settled, not active', () => {
    const { journal, a, ids } = twoJobs();
    const of = ids(a);
    journal.updateItems(of.slice(0, 3), { state: 'active' });
    journal.settleItems(a, of.slice(0, 10), { state: 'done', phase: 'added' });
    expect(journal.totals(a)).toMatchObject({ done: 10, active: 0 });
    expect(journal.itemsIn(a, ['active'])).toEqual([]);
  });

  it('scattered ids are settled on their rows', () => {
    const { journal, a, ids, done } = twoJobs();
    const scattered = ids(a).filter((_, i) => i % 2 === 0);
    journal.settleItems(a, scattered, { state: 'done', phase: 'added' });
    expect(done(a)).toEqual(scattered);
    expect(journal.totals(a)).toMatchObject({ done: 15 });
  });
});

describe('journal.workIn and totals, read by column and by state', () => {
  it('the work list is each row in journal order with its own phase and data; totals count every state and byte', () => {
    const { journal, a, b, ids } = twoJobs();
    const of = ids(a);
    journal.updateItems(of.slice(0, 3), { state: 'done', bytes: 100 });
    journal.updateItems([of[3]!], { state: 'skipped', bytes: 7 });
    journal.updateItems([of[4]!], { state: 'failed', error: 'No', bytes: 5 });
    journal.updateItems([of[5]!, of[9]!], { state: 'active', phase: 'sending', bytes: 10 });
    journal.updateItems([of[6]!], { phase: 'waiting' });
    // Row by row, as the journal read them before: the answer must be the same.
    const byRow = journal.itemsIn(a, ['pending', 'active']).map(({ id, phase, data }) => ({ id, phase, data }));
    expect(byRow.length).toBe(25);
    expect(journal.workIn(a, ['pending', 'active'])).toEqual(byRow);
    expect(journal.workIn(a, ['pending', 'active']).slice(0, 5)).toEqual([
      { id: of[5], phase: 'sending', data: '{"i":5}' },
      { id: of[6], phase: 'waiting', data: '{"i":6}' },
      { id: of[7], phase: '', data: '{"i":7}' },
      { id: of[8], phase: '', data: '{"i":8}' },
      { id: of[9], phase: 'sending', data: '{"i":9}' },
    ]);
    expect(journal.workIn(a, ['failed'])).toEqual([{ id: of[4], phase: '', data: '{"i":4}' }]);
    expect(journal.totals(a)).toEqual({
      total: 30,
      done: 3,
      failed: 1,
      skipped: 1,
      active: 2,
      bytesTotal: 300 + 5 + 20,
      bytesDone: 300,
    });
    expect(journal.totals(b)).toEqual({
      total: 30,
      done: 0,
      failed: 0,
      skipped: 0,
      active: 0,
      bytesTotal: 0,
      bytesDone: 0,
    });
  });
});
