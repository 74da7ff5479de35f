/**
 * mentors.copy_docs_vs_train: copying a mentor with its 500 documents (1–64 KB) from one tenant to another of the same
 * sandbox (`mentors.copy --with-documents`: the `mentor-copy` job), against `train` of the same 500 files from disk to
 * a fresh mentor of that target tenant. Ratio train_time / copy_time (higher is better; goal >= 0.8).
 *
 * The platform's API gives no way to read a document's file, so a copy carries documents by their URL: the source
 * mentor's documents are URL documents, served from the same 500 files by a loopback HTTP server. Each side is timed
 * from its call (copy: export, plan and the source's document list; train: the preview that scans and hashes the
 * files) until the target tenant has accepted every document (copy: the job completes; train: its upload phase ends,
 * as train.vs_raw measures it); the target's training is left to finish before the next run. Runs alternate, three
 * of each; the medians are compared. The sandbox runs in this process, as for mentors.page_open_ms.
 */
import { createReadStream, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine, type Engine } from '../src/main/engine';
import type { SecretStore } from '../src/main/engine/secrets/keychain';
import { startSandbox, type Sandbox } from '../src/server/app';
import type { BenchResult, Log } from './lib/suite';
import { median } from './lib/suite';

const DOCUMENTS = 500;
const RUNS = 3;
const WORDS = ['ratio', 'fraction', 'angle', 'vector', 'matrix', 'proof', 'lemma', 'graph', 'prime', 'series'];

const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

/** Secrets of this run only: two tenants need two keys. */
function memorySecrets(): SecretStore {
  const kept = new Map<string, string>();
  return {
    get: async (account) => kept.get(account) ?? null,
    set: async (account, secret) => void kept.set(account, secret),
    delete: async (account) => kept.delete(account),
    status: async () => ({ available: true, message: 'in memory' }),
  };
}

/** 500 text files of 1–64 KB, the same every run. */
function writeFiles(dir: string): string[] {
  mkdirSync(dir, { recursive: true });
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const names: string[] = [];
  for (let i = 0; i < DOCUMENTS; i++) {
    const size = 1024 + Math.floor(next() * 63 * 1024);
    let text = `Lesson ${i}.\n`;
    while (text.length < size) text += `${WORDS[Math.floor(next() * WORDS.length)]} `;
    const name = `lesson-${String(i).padStart(3, '0')}.txt`;
    writeFileSync(join(dir, name), text.slice(0, size));
    names.push(name);
  }
  return names;
}

async function api(server: Sandbox, key: string, path: string, init: RequestInit = {}) {
  const response = await fetch(server.url + path, {
    ...init,
    headers: { authorization: `Api-Key ${key}`, ...(init.headers as Record<string, string>) },
  });
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status} ${await response.text()}`);
  return response.json() as Promise<Record<string, unknown>>;
}

/** Until no document of the tenant is pending: the next run starts on a quiet sandbox. */
async function settled(server: Sandbox, org: string): Promise<void> {
  const pending = server.db.prepare(
    "SELECT count(*) AS n FROM documents WHERE org = ? AND training_status = 'pending'",
  );
  while ((pending.get(org) as { n: number }).n > 0) await new Promise((resolve) => setTimeout(resolve, 200));
}

async function waitFor(engine: Engine, id: string, done: (job: Awaited<ReturnType<typeof getJob>>) => boolean) {
  for (;;) {
    const job = await getJob(engine, id);
    if (['failed', 'cancelled', 'paused'].includes(job.state)) throw new Error(`job ${job.state}: ${job.error}`);
    if (done(job)) return job;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
const getJob = (engine: Engine, id: string) => engine.invoke('jobs.get', { id });

export async function copyDocsVsTrain(log: Log): Promise<BenchResult> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-mentor-copy-'));
  const filesDir = join(dir, 'files');
  const names = writeFiles(filesDir);
  const files = createServer((req, res) => {
    const name = (req.url ?? '').slice(1);
    if (!names.includes(name)) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/plain' });
    createReadStream(join(filesDir, name)).pipe(res);
  });
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  const filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
  const server = await startSandbox({ dataDir: join(dir, 'sandbox'), seed: 'none', log: () => {} });
  const other = server.otherOrg;
  try {
    // The source mentor, its 500 documents trained from their URLs.
    const base = `/api/ai-mentor/orgs/${server.org}/users/${server.user}/`;
    const made = await api(server, server.apiKey, base, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Source Mentor', description: 'Five hundred lessons.' }),
    });
    const source = made.unique_id as string;
    const train = `/api/ai-index/orgs/${server.org}/users/${server.user}/documents/train/`;
    for (const name of names) {
      const form = new FormData();
      for (const [field, value] of Object.entries({ pathway: source, type: 'url', url: `${filesUrl}/${name}` }))
        form.set(field, value);
      await api(server, server.apiKey, train, { method: 'POST', body: form });
    }
    await settled(server, server.org);

    const engineDir = join(dir, 'engine');
    const engine = await createEngine({
      dataDir: engineDir,
      shell: 'test',
      secrets: memorySecrets(),
      env: { MENTOR_ADMIN_SANDBOX: 'off' },
      resumeJobs: false,
    });
    try {
      const from = await engine.invoke('profiles.add', {
        name: 'Campus',
        baseUrl: server.url,
        org: server.org,
        username: server.user,
        secret: server.apiKey,
        makeActive: true,
      });
      const to = await engine.invoke('profiles.add', {
        name: 'Riverside',
        baseUrl: server.url,
        org: other.org,
        username: other.user,
        secret: other.apiKey,
      });

      const copyOnce = async (run: number) => {
        const started = performance.now();
        const { job, documents } = await engine.invoke('mentors.copy', {
          profileId: from.id,
          mentor: source,
          toProfileId: to.id,
          name: `Copy ${run}`,
          withDocuments: true,
        });
        if (documents!.copied.length !== DOCUMENTS) throw new Error(`${documents!.copied.length} copyable documents`);
        const ended = await waitFor(engine, job!.id, (j) => j.state === 'completed');
        const seconds = (performance.now() - started) / 1000;
        if (ended.progress.failed) throw new Error(`${ended.progress.failed} items of the copy failed`);
        await settled(server, other.org);
        return seconds;
      };
      const trainOnce = async (run: number) => {
        const mentor = await engine.invoke('mentors.create', { profileId: to.id, name: `Trained ${run}` });
        const started = performance.now();
        const preview = await engine.invoke('train.preview', {
          profileId: to.id,
          mentor: mentor.uniqueId,
          paths: [filesDir],
        });
        if (preview.toSend.files !== DOCUMENTS) throw new Error(`the preview sends ${preview.toSend.files} files`);
        const { jobId } = await engine.invoke('train.start', { previewId: preview.id });
        // Its upload phase ends when the last file is answered (the job then follows training).
        await waitFor(engine, jobId, (j) => j.counts.uploadMs !== undefined);
        const seconds = (performance.now() - started) / 1000;
        await engine.invoke('jobs.cancel', { id: jobId });
        await settled(server, other.org);
        return seconds;
      };

      const copies: number[] = [];
      const trains: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        // Alternating which goes first, so neither always meets a sandbox the other has just warmed.
        const order = run % 2 ? ['train', 'copy'] : ['copy', 'train'];
        for (const side of order) {
          if (side === 'copy') copies.push(await copyOnce(run));
          else trains.push(await trainOnce(run));
        }
        log(`run ${run + 1}: copy ${copies.at(-1)!.toFixed(2)} s, train ${trains.at(-1)!.toFixed(2)} s`);
      }
      const ratio = median(trains) / median(copies);
      log(
        `copy with ${DOCUMENTS} documents: median ${median(copies).toFixed(2)} s; train of the same files: median ` +
          `${median(trains).toFixed(2)} s; ratio ${ratio.toFixed(2)}`,
      );
      return { name: 'mentors.copy_docs_vs_train', value: round(ratio), unit: 'ratio', goal: '>= 0.8' };
    } finally {
      await engine.close();
    }
  } finally {
    await server.close();
    await new Promise((resolve) => files.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  }
}
