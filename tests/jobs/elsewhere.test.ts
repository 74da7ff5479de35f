/**
 * An open app hears about a job that another process runs on the same data folder (`mentor-admin jobs resume`, the
 * background process of `train --no-wait`): its journal changes are announced as `jobs.changed` / `jobs.progress`.
 */
import { describe, expect, it } from 'vitest';
import { createEngine, shellPreset } from '../../src/main/engine';
import type { EventName } from '../../src/shared/contract';
import { cliProcess } from '../helpers/cli';
import { connect, noKeychain, until } from '../helpers/engine';
import { sandbox } from '../helpers/sandbox';
import { createMentor, text, tree } from '../train/setup';

describe('jobs run by another process', () => {
  it('are announced to an open app: their states once each, and their progress', async () => {
    const server = await sandbox();
    const mentor = await createMentor(server, 'Calculus');
    const key = { MENTOR_ADMIN_API_KEY: server.apiKey };
    const { engine: writer, dataDir } = await connect(server, { key: 'env-only' });
    // The app is open first, as an admin's would be: its start resumes nothing.
    const app = await createEngine({
      ...shellPreset('browser'),
      dataDir,
      sandbox: 'off',
      secrets: noKeychain,
      env: { ...key, MENTOR_ADMIN_SCHEDULER: 'off' },
    });
    try {
      const heard: { name: EventName; id: string; state: string }[] = [];
      app.onEvent((name, payload) => {
        const { id, state } = payload as { id?: string; state?: string };
        if (name.startsWith('jobs.') && id && state) heard.push({ name, id, state });
      });
      const files: Record<string, string> = {};
      for (let i = 0; i < 6; i++) files[`n-${i}.md`] = text(`Note ${i}`);
      const preview = await writer.invoke('train.preview', { mentor, paths: [tree(files)] });
      const { jobId } = await writer.invoke('train.start', { previewId: preview.id, queue: true });
      await writer.close();
      // Slow enough that the app looks (once a second) while the job runs.
      server.setFaults('latency=300-300ms');

      const resumed = await cliProcess(['--data-dir', dataDir, 'jobs', 'resume', jobId, '--json'], {
        env: { ...process.env, ...key, MENTOR_ADMIN_SANDBOX: 'off' },
        timeoutMs: 60_000,
      });
      expect(resumed.code, resumed.stderr).toBe(0);
      const states = () => heard.filter((e) => e.id === jobId && e.name === 'jobs.changed').map((e) => e.state);
      await until('the app to hear the job complete', () => states().includes('completed'), 5_000);
      expect(states()).toContain('running');
      expect(states().filter((state) => state === 'completed')).toHaveLength(1);
      expect(heard.some((e) => e.id === jobId && e.name === 'jobs.progress')).toBe(true);
      expect(await app.invoke('jobs.get', { id: jobId })).toMatchObject({
        state: 'completed',
        counts: { uploaded: 6, trained: 6, failed: 0 },
      });
    } finally {
      await app.close();
    }
  }, 90_000);
});
