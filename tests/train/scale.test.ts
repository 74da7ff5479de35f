/**
 * 10,000+ files: the preview and the job complete, every file is journalled, uploaded once and trained. The
 * sandbox runs as its own process (as a tenant would be), so the engine's event loop is measured on its own.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { requireKeychainSession, tempDir, uniqueService } from '../helpers/temp';
import { createEngine } from '../../src/main/engine';
import { waitForJob } from './setup';

const FILES = 10_000;
let serverProcess: ChildProcess | null = null;
afterAll(() => {
  serverProcess?.kill('SIGTERM');
});

interface ServerInfo {
  url: string;
  org: string;
  user: string;
  apiKey: string;
}

async function startServerProcess(): Promise<ServerInfo> {
  serverProcess = spawn(
    process.execPath,
    ['out/main/sandbox.js', '--port', '0', '--seed', 'none', '--data', tempDir('sandbox-')],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  for await (const line of createInterface({ input: serverProcess.stdout! })) return JSON.parse(line) as ServerInfo;
  throw new Error('the sandbox did not start');
}

describe('10,000 files', () => {
  it('previews and trains every one exactly once', async () => {
    requireKeychainSession();
    const server = await startServerProcess();
    const auth = { authorization: `Api-Key ${server.apiKey}` };
    const created = await fetch(`${server.url}/api/ai-mentor/orgs/${server.org}/users/${server.user}/`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Big course' }),
    });
    const mentor = ((await created.json()) as { unique_id: string }).unique_id;

    const root = join(tempDir(), 'big course');
    for (let folder = 0; folder < FILES / 500; folder++) {
      const dir = join(root, `unit ${folder}`);
      mkdirSync(dir, { recursive: true });
      for (let i = 0; i < 500; i++)
        writeFileSync(join(dir, `n${i}.txt`), `Unit ${folder}, note ${i}: sums and series.\n`);
    }
    writeFileSync(join(root, 'empty.txt'), '');

    const engine = await createEngine({ dataDir: tempDir(), shell: 'test', keychainService: uniqueService(), env: {} });
    try {
      await engine.invoke('profiles.add', {
        name: 'Sandbox',
        baseUrl: server.url,
        org: server.org,
        username: server.user,
        secret: server.apiKey,
        makeActive: true,
      });
      let started = Date.now();
      const preview = await engine.invoke('train.preview', { mentor, paths: [root] });
      const previewMs = Date.now() - started;
      expect(preview.totalFiles).toBe(FILES + 1);
      expect(preview.classes).toMatchObject({ new: FILES, skipped: 1 });
      expect(preview.files).toHaveLength(500);

      started = Date.now();
      const { jobId } = await engine.invoke('train.start', { previewId: preview.id, concurrency: 16 });
      const job = await waitForJob(engine, jobId, ['completed', 'failed', 'cancelled'], 120_000);
      const jobMs = Date.now() - started;
      expect(job.state).toBe('completed');
      expect(job.counts).toMatchObject({ uploaded: FILES, skipped: 1, trained: FILES, failed: 0 });

      const page = await fetch(
        `${server.url}/api/ai-index/orgs/${server.org}/users/${server.user}/documents/pathways/${mentor}/?limit=1`,
        { headers: auth },
      );
      expect(((await page.json()) as { count: number }).count).toBe(FILES);
      console.warn(
        `10,000 files: preview ${previewMs} ms, job ${jobMs} ms (upload phase ${job.counts.uploadMs} ms, then training)`,
      );
    } finally {
      await engine.close();
    }
  }, 180_000);
});
