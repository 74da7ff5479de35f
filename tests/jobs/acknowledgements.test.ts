/**
 * Batched acknowledgements: what a kind hands to `JobJournal.later` (a training job's upload answers) is committed
 * with the journal's next transaction of its own rather than in a commit of its own, is never lost to a rollback,
 * and is safe to lose in a crash: the resumed run looks the upload up on the tenant instead of sending it again.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JobJournal } from '../../src/main/engine/jobs/journal';
import { openDatabase } from '../../src/main/engine/store/database';
import { connect, until, waitForJob } from '../helpers/engine';
import { sandbox } from '../helpers/sandbox';
import { tempDir } from '../helpers/temp';
import { allItems, createMentor, duplicatesOf, serverDocuments, text, tree } from '../train/setup';

describe('acknowledgements wait for the next commit', () => {
  it('go with the journal’s next transaction, survive a rollback, and are committed by themselves soon after', async () => {
    const file = join(tempDir(), 'journal.sqlite');
    const db = openDatabase(file);
    const journal = new JobJournal(db);
    // What another process sees: only what is committed.
    const elsewhere = openDatabase(file);
    const phase = (id: number) =>
      (elsewhere.prepare('SELECT phase FROM job_items WHERE id = ?').pluck().get(id) as string | undefined) ?? null;
    try {
      const jobId = journal.create({
        kind: 'train',
        profileId: null,
        title: 'Two files',
        params: {},
        items: [
          { key: 'a.md', label: 'a.md' },
          { key: 'b.md', label: 'b.md' },
        ],
      });
      const [a, b] = journal.itemsIn(jobId, ['pending']);
      journal.later(() => journal.updateItem(a!.id, { phase: 'training', data: { documentId: '7' } }));
      expect(phase(a!.id)).toBe('');

      // A transaction of the journal's that rolls back takes the acknowledgement back with it, to go with the next.
      expect(() =>
        journal.transaction(() => {
          journal.updateItem(b!.id, { phase: 'uploading' });
          throw new Error('the claim was refused');
        }),
      ).toThrow('the claim was refused');
      expect([phase(a!.id), phase(b!.id)]).toEqual(['', '']);

      // Someone else's transaction does not carry it: that one could still roll back.
      db.transaction(() => journal.updateItem(b!.id, { phase: 'claimed' }))();
      expect([phase(a!.id), phase(b!.id)]).toEqual(['', 'claimed']);

      // The journal's next write commits it, in the same transaction.
      journal.updateItem(b!.id, { phase: 'uploading' });
      expect([phase(a!.id), phase(b!.id)]).toEqual(['training', 'uploading']);
      expect(JSON.parse(journal.item(a!.id)!.data)).toEqual({ documentId: '7' });

      // With nothing else to write, within half a second; or at once when asked (a run ends).
      journal.later(() => journal.updateItem(b!.id, { phase: 'training' }));
      expect(phase(b!.id)).toBe('uploading');
      await until('the acknowledgement to be committed by itself', () => phase(b!.id) === 'training', 5_000);
      journal.later(() => journal.updateItem(a!.id, { state: 'done', phase: 'trained' }));
      journal.flush();
      expect(phase(a!.id)).toBe('trained');
    } finally {
      elsewhere.close();
      db.close();
    }
  });

  it('an upload answered but not committed when the process is killed is found on the tenant, not sent again', async () => {
    const server = await sandbox();
    const mentor = await createMentor(server, 'Calculus');
    const { engine: writer, dataDir } = await connect(server, { key: 'env-only', keep: true });
    const notes: Record<string, string> = {};
    for (let i = 0; i < 12; i++) notes[`n-${i}.md`] = text(`Note ${i}`);
    const preview = await writer.invoke('train.preview', { mentor, paths: [tree(notes)] });
    const { jobId } = await writer.invoke('train.start', { previewId: preview.id, concurrency: 2, queue: true });
    await writer.close();

    // Killed the moment the fifth answer reaches the journal.
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(import.meta.dirname, 'fixtures/die-after-acknowledgement.ts'), dataDir, jobId, '5'],
      { env: { ...process.env, MENTOR_ADMIN_API_KEY: server.apiKey }, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const signal = await new Promise((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    expect(signal, stderr).toBe('SIGKILL');

    // On the tenant, but 'uploading' in the journal: the answers that were only in memory.
    const landed = new Set(
      serverDocuments(server, mentor).map(
        (doc) => (JSON.parse(doc.custom_metadata!) as { relative_path: string }).relative_path,
      ),
    );
    const db = openDatabase(join(dataDir, 'mentor-admin.sqlite'));
    const unanswered = new JobJournal(db)
      .itemsIn(jobId, ['active'])
      .filter((item) => item.phase === 'uploading' && landed.has(item.key))
      .map((item) => item.key);
    db.close();
    expect(unanswered.length).toBeGreaterThan(0);

    // The app opens again and resumes the job: every file once, the lost answers found by looking.
    const { engine } = await connect(server, { key: 'env-only', dataDir });
    const done = await waitForJob(engine, jobId, ['completed', 'failed', 'cancelled'], 60_000);
    expect(done).toMatchObject({ state: 'completed', counts: { uploaded: 12, trained: 12, failed: 0 } });
    const docs = serverDocuments(server, mentor);
    expect(docs).toHaveLength(12);
    expect(duplicatesOf(docs)).toEqual([]);
    const items = await allItems(engine, jobId);
    for (const key of unanswered) {
      expect(items.find((item) => item.key === key)!.detail, key).toMatchObject({ adopted: true });
    }
  }, 120_000);
});
