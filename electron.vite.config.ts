import { cpSync } from 'node:fs';
import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { cspMetaTag } from './src/shared/csp';

/** The store reads its numbered .sql migrations from disk beside the bundle; copy them there. */
function copyMigrations(): Plugin {
  return {
    name: 'copy-migrations',
    closeBundle() {
      cpSync(resolve('src/main/engine/store/migrations'), resolve('out/main/migrations'), { recursive: true });
    },
  };
}

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
    plugins: [copyMigrations()],
    build: {
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
        },
      },
    },
  },
  preload: {
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
    plugins: [react(), cspMeta()],
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
