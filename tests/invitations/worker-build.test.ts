/**
 * The CSV parse worker in the production build: electron-vite writes `out/main/invite-worker.js` beside the engine's
 * bundle, the engine's resolver finds it there (and from a split chunk, and under tsx the TypeScript worker), and the
 * built file really parses a file on a worker thread. `npm test` builds before vitest; run `npx electron-vite build`
 * first when running this file alone.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { threadId } from 'node:worker_threads';
import { beforeAll, describe, expect, it } from 'vitest';
import { INVITE_WORKER_FILE, runTask, workerSource } from '../../src/main/engine/invitations/worker-runner';
import { openDatabase } from '../../src/main/engine/store/database';
import { bundleText } from '../helpers/build';
import { tempDir } from '../helpers/temp';
import { csvFile } from './setup';

const OUT_MAIN = resolve('out/main');
const builtEngineUrl = pathToFileURL(join(OUT_MAIN, 'engine.js')).href;

beforeAll(() => {
  if (!existsSync(join(OUT_MAIN, 'engine.js'))) {
    throw new Error('The main process is not built: run `npx electron-vite build` first');
  }
});

describe('the parse worker in the build', () => {
  it('is an entry of the build, beside the engine', () => {
    const path = join(OUT_MAIN, INVITE_WORKER_FILE);
    expect(existsSync(path)).toBe(true);
    // The built worker is the worker (it answers the runner's protocol), not an empty stub.
    expect(readFileSync(path, 'utf8')).toMatch(/workerData/);
    // And the engine's bundle (engine.js and the chunks it loads, the invitations area's when composed) looks for it
    // by that name.
    expect(bundleText(join(OUT_MAIN, 'engine.js'), { dynamic: true })).toContain(INVITE_WORKER_FILE);
  });

  it('is what the engine resolves when it runs from the build', () => {
    const source = workerSource(builtEngineUrl);
    expect(source?.kind).toBe('built');
    expect(fileURLToPath(source!.source as URL)).toBe(join(OUT_MAIN, INVITE_WORKER_FILE));
    // Code split into out/main/chunks/ finds it one folder up.
    const fromChunk = workerSource(pathToFileURL(join(OUT_MAIN, 'chunks', 'engine-x.js')).href);
    expect(fromChunk && fileURLToPath(fromChunk.source as URL)).toBe(join(OUT_MAIN, INVITE_WORKER_FILE));
  });

  it('resolves inside a packaged app.asar the same way', () => {
    const asar = '/opt/Mentor Admin/resources/app.asar/out/main';
    const seen: string[] = [];
    const source = workerSource(pathToFileURL(`${asar}/engine.js`).href, (path) => {
      seen.push(path);
      return path === `${asar}/${INVITE_WORKER_FILE}`;
    });
    expect(source?.kind).toBe('built');
    expect(seen[0]).toBe(`${asar}/${INVITE_WORKER_FILE}`);
  });

  it('is the TypeScript worker under tsx, and nothing when a build lacks it', () => {
    const ts = workerSource(pathToFileURL(resolve('src/main/engine/invitations/worker-runner.ts')).href);
    expect(ts?.kind).toBe('tsx');
    expect(ts?.extra).toMatchObject({
      entry: pathToFileURL(resolve('src/main/engine/invitations/worker.ts')).href,
    });
    expect(workerSource(pathToFileURL(join(tempDir(), 'engine.js')).href)).toBeNull();
  });

  it('parses a file on a worker thread when run from the build', async () => {
    const db = openDatabase(join(tempDir(), 'app.sqlite'));
    try {
      db.prepare(
        `INSERT INTO profiles (id, name, base_url, org, username, auth_scheme, created_at, updated_at)
         VALUES ('p', 'P', 'http://127.0.0.1:9', 'o', 'u', 'Api-Key', 'now', 'now')`,
      ).run();
      db.prepare(
        `INSERT INTO invite_imports (id, profile_id, name, path, size, settings, state, created_at, updated_at)
         VALUES ('i', 'p', 'f', 'f', 1, '{}', 'parsing', 'now', 'now')`,
      ).run();
      const people = Array.from({ length: 25 }, (_, i) => `built${i}@example.org`).join('\n');
      const path = csvFile('built.csv', `Email\n${people}\n`);
      const settings = {
        encoding: 'utf-8',
        bomBytes: 0,
        delimiter: ',',
        newline: '\n',
        headerRow: 0,
      } as const;
      let progressed = 0;
      const result = await runTask(
        db,
        {
          task: 'read' as const,
          input: {
            importId: 'i',
            path,
            settings: { ...settings, mapping: ['email'], headers: [], remembered: [], samples: [], preview: [] },
          },
        },
        (rows) => (progressed = rows),
        { moduleUrl: builtEngineUrl },
      ).done;
      expect(result.stats.rows).toBe(25);
      expect(progressed).toBe(25);
      // Not the in-process fallback: another thread did it.
      expect(result.threadId).not.toBe(threadId);
      expect(db.prepare(`SELECT COUNT(*) FROM invite_import_rows WHERE import_id = 'i'`).pluck().get()).toBe(25);
    } finally {
      db.close();
    }
  });
});
