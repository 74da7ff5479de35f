/**
 * The command line, browser mode and the sandbox server run from the build (out/), with plain Node. From a source
 * checkout they build it first when it is missing or older than its sources, so `mentor-admin` works right after
 * `npm ci` and never runs code older than the sources beside it. The check is cheap (a few hundred `stat`s against
 * the record each part of the build leaves in out/.build/, see electron.vite.config.ts); the build, when needed,
 * takes seconds. Several processes needing it at once build once: the others wait for the first.
 *
 * Usage: node scripts/ensure-build.mjs [main] [preload] [renderer]   (default: main)
 * Everything it says goes to stderr: stdout stays the command's own (`mentor-admin --json`).
 */
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** Where each part of the build records what it was made from (relative to the project's root). */
export const BUILD_RECORDS_DIR = 'out/.build';

/** A lock older than this was left by a build that died without cleaning up. */
const LOCK_STALE_MS = 10 * 60_000;
/** File times lag the clock by up to a timer tick: a source changed this close before a build started counts as
 * changed (at worst one build more). */
const CLOCK_MARGIN_MS = 100;

const lockDir = (root) => join(root, BUILD_RECORDS_DIR, 'lock');

/**
 * Why `parts` of the build must be made again, or null when they are current. Without sources (a copy of the build
 * alone) there is nothing to build from: what is there runs.
 */
export function buildStaleReason(parts = ['main'], root = ROOT) {
  if (!existsSync(join(root, 'src'))) return null;
  for (const part of parts) {
    const recordFile = join(root, BUILD_RECORDS_DIR, `${part}.json`);
    let record;
    try {
      record = JSON.parse(readFileSync(recordFile, 'utf8'));
    } catch {
      return `out/${part} is not built yet`;
    }
    for (const entry of record.entries) {
      if (!existsSync(join(root, 'out', part, entry))) return `out/${part}/${entry} is missing`;
    }
    for (const input of record.inputs) {
      const stat = statSync(join(root, input), { throwIfNoEntry: false });
      if (!stat) return `${input} was removed since the last build`;
      if (stat.mtimeMs > record.startedAt - CLOCK_MARGIN_MS) return `${input} changed since the last build`;
    }
  }
  return null;
}

function processAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/** Whether a live process holds the build lock (one it left behind when it died is removed). */
function lockHeld(lock) {
  const since = statSync(lock, { throwIfNoEntry: false })?.mtimeMs;
  if (since === undefined) return false;
  let holder;
  try {
    holder = Number(readFileSync(join(lock, 'pid'), 'utf8'));
  } catch {
    // Just taken, its pid not written yet.
  }
  if ((holder && !processAlive(holder)) || Date.now() - since > LOCK_STALE_MS) {
    rmSync(lock, { recursive: true, force: true });
    return false;
  }
  return true;
}

/** Takes the build lock, or answers false when another process holds it. */
function tryLock(lock) {
  mkdirSync(dirname(lock), { recursive: true });
  try {
    mkdirSync(lock);
  } catch (error) {
    if (error.code !== 'EEXIST') throw error;
    lockHeld(lock);
    return false;
  }
  writeFileSync(join(lock, 'pid'), String(process.pid));
  return true;
}

function runBuild(root) {
  let electronVite;
  try {
    const require = createRequire(join(root, 'package.json'));
    electronVite = join(dirname(require.resolve('electron-vite/package.json')), 'bin', 'electron-vite.js');
  } catch {
    throw new Error('Mentor Admin is not built and electron-vite, which builds it, is not installed: run `npm ci`.');
  }
  return import('node:child_process').then(
    ({ spawn }) =>
      new Promise((resolveBuild, rejectBuild) => {
        // The build's output goes to stderr: stdout belongs to the command that asked for it.
        const child = spawn(process.execPath, [electronVite, 'build', '--logLevel', 'warn'], {
          cwd: root,
          stdio: ['ignore', process.stderr, process.stderr],
        });
        child.once('error', rejectBuild);
        child.once('exit', (code, signal) =>
          code === 0
            ? resolveBuild()
            : rejectBuild(new Error(`The build failed (${signal ?? `exit code ${code}`}); see the errors above.`)),
        );
      }),
  );
}

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

/**
 * Builds when `parts` are stale, and waits for a build another process is making (it rewrites out/); resolves once
 * they can be run. Rejects with a readable Error when the build fails.
 */
export async function ensureBuilt(
  parts = ['main'],
  { root = ROOT, log = (line) => process.stderr.write(`${line}\n`) } = {},
) {
  const lock = lockDir(root);
  let waited = false;
  const wait = async () => {
    if (!waited) log('Mentor Admin: waiting for the build another process is making…');
    waited = true;
    await sleep(250);
  };
  for (;;) {
    const reason = buildStaleReason(parts, root);
    if (!reason) {
      if (!lockHeld(lock)) return;
      await wait();
      continue;
    }
    if (!tryLock(lock)) {
      await wait();
      continue;
    }
    try {
      // Built by a process that held the lock a moment ago?
      const stillStale = buildStaleReason(parts, root);
      if (!stillStale) return;
      log(`Mentor Admin: building from the sources (${stillStale})…`);
      await runBuild(root);
      return;
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const parts = process.argv.slice(2);
  ensureBuilt(parts.length ? parts : ['main']).catch((error) => {
    process.stderr.write(`${error.message}\n`);
    process.exitCode = 1;
  });
}
