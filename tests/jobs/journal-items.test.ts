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
