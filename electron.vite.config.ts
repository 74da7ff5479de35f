import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative, resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { BUILD_RECORDS_DIR } from './scripts/ensure-build.mjs';
import { cspMetaTag } from './src/shared/csp';

const MIGRATIONS = 'src/main/engine/store/migrations';

/** The store reads its numbered .sql migrations from disk beside the bundle; copy them there. */
function copyMigrations(): Plugin {
  return {
    name: 'copy-migrations',
    closeBundle() {
      cpSync(resolve(MIGRATIONS), resolve('out/main/migrations'), { recursive: true });
    },
  };
}

/** Files that shape every part of the build without being one of its modules. */
const CONFIG_INPUTS = ['package.json', 'package-lock.json', 'electron.vite.config.ts', 'src/shared/csp.ts'];

/**
 * Writes out/.build/<part>.json when a part of the build is written: when it started, the source files it was made
 * from, its entries and the packages it loads at run time. `mentor-admin` and `npm run web|server` compare the sources'
 * times with it to rebuild only when something changed (scripts/ensure-build.mjs); a test checks that the packages are
 * dependencies, which the installer ships.
 */
function buildRecord(part: 'main' | 'preload' | 'renderer', extraInputs: () => string[] = () => []): Plugin {
  const file = resolve(BUILD_RECORDS_DIR, `${part}.json`);
  let startedAt = 0;
  return {
    name: 'build-record',
    buildStart() {
      startedAt = Date.now();
      // A build that fails leaves no record: the next run builds again.
      rmSync(file, { force: true });
    },
    writeBundle(_options, bundle) {
      const inputs = new Set([...CONFIG_INPUTS, ...extraInputs()]);
      for (const id of this.getModuleIds()) {
        const path = relative(process.cwd(), id.split('?')[0]!).replaceAll('\\', '/');
        if (!id.startsWith('\0') && !path.startsWith('..') && !path.includes('node_modules/')) inputs.add(path);
      }
      const chunks = Object.values(bundle).filter((output) => output.type === 'chunk');
      const externals = new Set(
        chunks.flatMap((chunk) => [...chunk.imports, ...chunk.dynamicImports]).filter((name) => !(name in bundle)),
      );
      mkdirSync(resolve(BUILD_RECORDS_DIR), { recursive: true });
      writeFileSync(
        file,
        `${JSON.stringify(
          {
            startedAt,
            entries: chunks.filter((chunk) => chunk.isEntry).map((chunk) => chunk.fileName),
            externals: [...externals].filter((name) => !builtinModules.includes(name.replace(/^node:/, ''))).sort(),
            inputs: [...inputs].filter((path) => existsSync(path)).sort(),
          },
          null,
          1,
        )}\n`,
      );
    },
  };
}

/** The migrations folder (a new file changes its time) and its files. */
const migrationInputs = () => [MIGRATIONS, ...readdirSync(MIGRATIONS).map((name) => join(MIGRATIONS, name))];

/**
 * The renderer's CSP as a <meta> tag, first in index.html's head, from the same function as the headers the Electron
 * protocol handler and browser mode send (the dev server's policy under `electron-vite dev`).
 */
function cspMeta(): Plugin {
  return {
    name: 'csp-meta',
    transformIndexHtml: { order: 'pre', handler: (_html, context) => [cspMetaTag({ dev: !!context.server })] },
  };
}

/** Recharts and what it is built on: one chunk, compiled eagerly (see below). */
const CHART_MODULES =
  /\/node_modules\/(recharts|victory-vendor|d3-[a-z-]+|internmap|decimal\.js-light|es-toolkit|eventemitter3|immer|reselect|redux|redux-thunk|@reduxjs\/toolkit|react-redux|tiny-invariant)\//;

export default defineConfig({
  main: {
    plugins: [copyMigrations(), buildRecord('main', migrationInputs)],
    build: {
      // The same bundles run in Electron (Node 22) and, for the command line, browser mode and the sandbox server,
      // in plain Node 20 or later.
      target: 'node20',
      rollupOptions: {
        input: {
          index: resolve('src/main/electron/main.ts'),
          engine: resolve('src/main/electron/engine-process.ts'),
          // The invitations parse worker (worker_threads), found beside engine.js by invitations/worker-runner.ts.
          'invite-worker': resolve('src/main/engine/invitations/worker.ts'),
          // SQLite's WAL checkpoints off the engine's thread, found beside engine.js by store/checkpointer.ts.
          'checkpoint-worker': resolve('src/main/engine/store/checkpoint-worker.mjs'),
          // The local sandbox platform, run by the Electron engine in a worker thread (sandbox/launcher.ts).
          sandbox: resolve('src/server/main.ts'),
          // `mentor-admin` (bin/mentor-admin.mjs runs it) and browser mode (`npm run web`), with plain Node.
          cli: resolve('src/main/cli/main.ts'),
          web: resolve('src/main/host/main.ts'),
        },
        // Every file in out/main: code finds what lies beside its bundle (migrations, workers, the sandbox, cli.js)
        // the same way from whichever chunk it ends up in.
        output: { chunkFileNames: '[name]-[hash].js' },
      },
    },
  },
  preload: {
    plugins: [buildRecord('preload')],
    build: {
      // A sandboxed preload can require only `electron` and a few built-ins: bundle zod and the contract into it.
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve('src/preload/index.ts') },
        // Sandboxed preloads cannot be ES modules.
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'src/renderer',
    plugins: [react(), cspMeta(), buildRecord('renderer')],
    build: {
      rollupOptions: {
        input: { index: resolve('src/renderer/index.html') },
        output: {
          // Libraries in chunks of their own: recharts with what it is built on (React comes along) in `charts`, the
          // rest (Mantine, TanStack Query, zod…) in `vendor`, so the app's own code never shares a chunk with them
          // (no import cycle between chunks).
          codeSplitting: {
            groups: [
              { name: 'charts', test: (id) => CHART_MODULES.test(id.replaceAll('\\', '/')), priority: 2 },
              { name: 'vendor', test: /[\\/]node_modules[\\/]/, priority: 1 },
            ],
          },
          // V8 compiles the charts' code with the page (off the main thread, while the bundle streams in) rather than
          // function by function the first time the Overview draws: ~1,200 lazy compilations on that click otherwise.
          banner: (chunk) => (chunk.name === 'charts' ? '//# allFunctionsCalledOnLoad' : ''),
        },
      },
    },
  },
});
