/**
 * The command line, browser mode and the sandbox server run from the build with plain Node: `mentor-admin` builds on
 * first use and again only when a source changed (scripts/ensure-build.mjs), processes that need a build at once make
 * one, and what the build loads at run time is what the installer ships (the package's `dependencies`).
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildStaleReason, ensureBuilt } from '../../scripts/ensure-build.mjs';
import { cliEntry } from '../../src/main/cli/background';
import { defaultSandboxRunner } from '../../src/main/engine/sandbox/launcher';
import { OUT_MAIN } from '../helpers/build';
import { until } from '../helpers/engine';
import { requireKeychainSession, tempDir, uniqueService } from '../helpers/temp';

const ROOT = resolve('.');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Run> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.once('error', fail);
    child.once('close', (code) => done({ code, stdout, stderr }));
  });
}

const jsonLines = (text: string) =>
  text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);

/** A project root with one built part, as electron.vite.config.ts records it. */
function fakeBuild(options: { inputs?: string[]; startedAt?: number } = {}) {
  const root = tempDir('build-record-');
  mkdirSync(join(root, 'src'), { recursive: true });
  mkdirSync(join(root, 'out', 'main'), { recursive: true });
  mkdirSync(join(root, 'out', '.build'), { recursive: true });
  const inputs = options.inputs ?? ['src/main.ts', 'package.json'];
  const past = Date.now() / 1000 - 3600;
  for (const input of inputs) {
    writeFileSync(join(root, input), '// source\n');
    utimesSync(join(root, input), past, past);
  }
  writeFileSync(join(root, 'out', 'main', 'cli.js'), '// built\n');
  writeFileSync(
    join(root, 'out', '.build', 'main.json'),
    JSON.stringify({ startedAt: options.startedAt ?? Date.now() - 60_000, entries: ['cli.js'], externals: [], inputs }),
  );
  return root;
}

describe('when the build must be made again', () => {
  it('is current while no source is newer than the build, and says which one changed', () => {
    const root = fakeBuild();
    expect(buildStaleReason(['main'], root)).toBeNull();
    writeFileSync(join(root, 'src', 'main.ts'), '// edited\n');
    expect(buildStaleReason(['main'], root)).toBe('src/main.ts changed since the last build');
  });

  it('is needed when a part was never built, lost an entry or a source was removed', () => {
    const never = fakeBuild();
    expect(buildStaleReason(['main', 'renderer'], never)).toBe('out/renderer is not built yet');
    const lost = fakeBuild();
    rmSync(join(lost, 'out', 'main', 'cli.js'));
    expect(buildStaleReason(['main'], lost)).toBe('out/main/cli.js is missing');
    const removed = fakeBuild();
    rmSync(join(removed, 'src', 'main.ts'));
    expect(buildStaleReason(['main'], removed)).toBe('src/main.ts was removed since the last build');
  });

  it('trusts a build that has no sources beside it (an installed copy)', () => {
    const root = fakeBuild();
    writeFileSync(join(root, 'package.json'), '{}');
    rmSync(join(root, 'src'), { recursive: true });
    rmSync(join(root, 'out', '.build'), { recursive: true });
    expect(buildStaleReason(['main'], root)).toBeNull();
  });

  it("waits for another live process's build, and clears a lock whose process died", async () => {
    const root = fakeBuild();
    const lock = join(root, 'out', '.build', 'lock');
    mkdirSync(lock);
    writeFileSync(join(lock, 'pid'), String(process.pid));
    const lines: string[] = [];
    let done = false;
    const waiting = ensureBuilt(['main'], { root, log: (line) => lines.push(line) }).then(() => (done = true));
    await until('the wait to be announced', () => lines.length > 0);
    expect(lines).toEqual(['Mentor Admin: waiting for the build another process is making…']);
    await new Promise((resolveWait) => setTimeout(resolveWait, 600));
    expect(done).toBe(false);
    rmSync(lock, { recursive: true });
    await waiting;

    // A process that is gone holds nothing (pid 2^22 + 1 is above Linux's pid_max).
    mkdirSync(lock);
    writeFileSync(join(lock, 'pid'), String(2 ** 22 + 1));
    await ensureBuilt(['main'], { root, log: (line) => lines.push(line) });
    expect(existsSync(lock)).toBe(false);
    expect(lines).toHaveLength(1);
  });
});

describe('what runs from the build', () => {
  it('the sandbox beside the bundle, and the background command line is the bundle itself', () => {
    const fromBundle = pathToFileURL(join(OUT_MAIN, 'engine-x.js')).href;
    expect(defaultSandboxRunner(fromBundle)).toEqual({
      kind: 'process',
      file: process.execPath,
      args: [join(OUT_MAIN, 'sandbox.js')],
    });
    expect(cliEntry(fromBundle)).toBe(join(OUT_MAIN, 'cli.js'));
    // From the sources (development and these tests): the installed command, which runs the build.
    expect(cliEntry(pathToFileURL(resolve('src/main/cli/background.ts')).href)).toBe(resolve('bin/mentor-admin.mjs'));
    expect(() => defaultSandboxRunner(pathToFileURL(join(tempDir(), 'engine.js')).href)).toThrow(
      "The local sandbox's code (sandbox.js) is missing from this build",
    );
  });

  it('loads at run time only Node, Electron and the dependencies the installer ships', () => {
    const allowed = new Set([...Object.keys(pkg.dependencies), 'electron']);
    for (const part of ['main', 'preload', 'renderer']) {
      const record = JSON.parse(readFileSync(join(ROOT, 'out', '.build', `${part}.json`), 'utf8')) as {
        externals: string[];
      };
      const packageOf = (name: string) =>
        name
          .split('/')
          .slice(0, name.startsWith('@') ? 2 : 1)
          .join('/');
      const missing = record.externals.filter(
        (name) => !allowed.has(packageOf(name)) && !builtinModules.includes(name),
      );
      expect(missing, `out/${part} loads packages that are not dependencies`).toEqual([]);
    }
    // Bundled into the renderer, or development tools: none ships as node_modules.
    for (const name of ['react', 'react-dom', '@mantine/core', '@tanstack/react-query', 'recharts', 'tsx', 'zod']) {
      expect(pkg.dependencies[name], name).toBeUndefined();
      expect(pkg.devDependencies[name], name).toBeDefined();
    }
  });
});

describe('an installed copy (the build and the production dependencies only)', () => {
  it('runs the command line, starts the sandbox and a background job, with no TypeScript loader', async () => {
    requireKeychainSession();
    const app = tempDir('installed-');
    for (const path of ['out/main', 'bin', 'scripts/ensure-build.mjs', 'package.json']) {
      cpSync(join(ROOT, path), join(app, path), { recursive: true });
    }
    // Only `dependencies`, as electron-builder packs them: no tsx, no zod, no React.
    for (const name of Object.keys(pkg.dependencies)) {
      mkdirSync(dirname(join(app, 'node_modules', name)), { recursive: true });
      symlinkSync(join(ROOT, 'node_modules', name), join(app, 'node_modules', name), 'dir');
    }
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      MENTOR_ADMIN_HOME: tempDir(),
      MENTOR_ADMIN_KEYCHAIN_SERVICE: uniqueService(),
    };
    delete env.MENTOR_ADMIN_API_KEY;
    delete env.MENTOR_ADMIN_SANDBOX;
    const mentorAdmin = (...args: string[]) => run([join(app, 'bin', 'mentor-admin.mjs'), ...args], { cwd: app, env });

    const notes = tempDir('notes-');
    for (let i = 0; i < 3; i++)
      writeFileSync(join(notes, `note-${i}.md`), `# Note ${i}\nLimits and series, part ${i}.\n`);
    // No tenant yet: the command starts the local sandbox (out/main/sandbox.js) and trains one of its mentors; the
    // job runs in a background process of its own (out/main/cli.js).
    const started = await mentorAdmin('--json', 'train', notes, '--mentor', 'Calculus Coach', '--no-wait');
    expect(started.code, started.stderr).toBe(0);
    expect(started.stderr).not.toMatch(/building/i);
    const { job } = jsonLines(started.stdout).at(-1) as { job: string };
    let shown: Record<string, unknown>[] = [];
    await until(
      'the background job to complete',
      async () => {
        const result = await mentorAdmin('--json', 'jobs', 'show', job);
        expect(result.code, result.stderr).toBe(0);
        shown = jsonLines(result.stdout);
        expect(shown[0]!.state).toMatch(/^(queued|running|completed)$/);
        return shown[0]!.state === 'completed';
      },
      120_000,
    );
    expect(shown.at(-1)).toEqual({ job, total: 3, uploaded: 3, skipped: 0, trained: 3, failed: 0 });
  }, 240_000);
});

describe('a fresh clone', () => {
  it('builds on the first `mentor-admin` and runs the build from then on', async () => {
    const clone = tempDir('clone-');
    for (const path of ['src', 'bin', 'scripts', 'package.json', 'package-lock.json', 'electron.vite.config.ts']) {
      cpSync(join(ROOT, path), join(clone, path), { recursive: true });
    }
    for (const file of ['tsconfig.json', 'tsconfig.base.json', 'tsconfig.node.json', 'tsconfig.web.json']) {
      cpSync(join(ROOT, file), join(clone, file));
    }
    symlinkSync(join(ROOT, 'node_modules'), join(clone, 'node_modules'), 'dir');
    const env: NodeJS.ProcessEnv = { ...process.env, MENTOR_ADMIN_HOME: tempDir() };
    const mentorAdmin = (...args: string[]) =>
      run([join(clone, 'bin', 'mentor-admin.mjs'), ...args], { cwd: clone, env });

    const first = await mentorAdmin('--json', 'profile', 'list');
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toContain('Mentor Admin: building from the sources (out/main is not built yet)…');
    expect(first.stdout).toBe('');
    expect(existsSync(join(clone, 'out', 'main', 'cli.js'))).toBe(true);

    const second = await mentorAdmin('--json', 'profile', 'list');
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toBe('');
  }, 240_000);
});
