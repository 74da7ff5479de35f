/**
 * `server.upload_per_s`: 10 KB documents accepted per second by `documents/train/` (multipart, 200 answers), with 8
 * uploads in flight, over ~2,000 uploads. The sandbox runs in-process on a temp folder (seed `none` plus one mentor),
 * with its training worker running, as it would while an admin uploads a folder of documents. The client shares the
 * process, so it is kept lean (node:http with keep-alive, multipart bodies assembled by hand) to measure the server.
 *
 * `npx tsx bench/server-upload.ts` prints one JSON object per line.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startSandbox } from '../src/server/app';
import type { BenchResult } from './lib/suite';

const UPLOADS = 2000;
const WARMUP = 100;
const CONCURRENCY = 8;
const SIZE = 10 * 1024;

/** About 10 KB of course-note text, different for every upload (so the content hashes differ too). */
function document(i: number): string {
  const line = `Upload ${i}: lecture notes on limits, derivatives and integrals, with worked examples and exercises.\n`;
  return line.repeat(Math.ceil(SIZE / line.length)).slice(0, SIZE);
}

export async function run(
  log: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): Promise<BenchResult[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-upload-'));
  const server = await startSandbox({ dataDir, seed: 'none', log });
  try {
    const auth = { authorization: `Api-Key ${server.apiKey}` };
    const mentor = await fetch(`${server.url}/api/ai-mentor/orgs/${server.org}/users/${server.user}/`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Upload Benchmark' }),
    });
    if (mentor.status !== 201) throw new Error(`creating the mentor failed: ${mentor.status} ${await mentor.text()}`);
    const pathway = ((await mentor.json()) as { unique_id: string }).unique_id;
    const url = new URL(`${server.url}/api/ai-index/orgs/${server.org}/users/${server.user}/documents/train/`);
    const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    const boundary = '----sandbox-bench-boundary';

    const multipart = (i: number) =>
      Buffer.from(
        [
          `--${boundary}\r\nContent-Disposition: form-data; name="pathway"\r\n\r\n${pathway}\r\n`,
          `--${boundary}\r\nContent-Disposition: form-data; name="type"\r\n\r\nfile\r\n`,
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="notes-${i}.txt"\r\nContent-Type: text/plain\r\n\r\n`,
          `${document(i)}\r\n--${boundary}--\r\n`,
        ].join(''),
      );

    const upload = (i: number) =>
      new Promise<void>((resolve, reject) => {
        const body = multipart(i);
        const req = request(
          url,
          {
            method: 'POST',
            agent,
            headers: {
              ...auth,
              'content-type': `multipart/form-data; boundary=${boundary}`,
              'content-length': body.byteLength,
            },
          },
          (res) => {
            const parts: Buffer[] = [];
            res.on('data', (part: Buffer) => parts.push(part));
            res.on('end', () => {
              if (res.statusCode === 200) resolve();
              else reject(new Error(`upload ${i} answered ${res.statusCode}: ${Buffer.concat(parts).toString()}`));
            });
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    const batch = async (from: number, count: number) => {
      let next = from;
      const end = from + count;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < end) await upload(next++);
        }),
      );
    };

    await batch(0, WARMUP);
    const started = performance.now();
    await batch(WARMUP, UPLOADS);
    const seconds = (performance.now() - started) / 1000;
    const perSecond = Math.round(UPLOADS / seconds);
    const trained = server.db
      .prepare(`SELECT count(*) FROM documents WHERE training_status = 'trained'`)
      .pluck()
      .get() as number;
    log(
      `${UPLOADS} uploads in ${seconds.toFixed(2)} s (${perSecond}/s); ${trained} of ${UPLOADS + WARMUP} trained meanwhile`,
    );
    return [{ name: 'server.upload_per_s', value: perSecond, unit: 'uploads/s', goal: '>= 300' }];
  } finally {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const result of await run()) process.stdout.write(`${JSON.stringify(result)}\n`);
}
