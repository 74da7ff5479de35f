import { cpSync } from 'node:fs';
import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';
import react from '@vitejs/plugin-react';

/** The store reads its numbered .sql migrations from disk beside the bundle; copy them there. */
function copyMigrations(): Plugin {
  return {
    name: 'copy-migrations',
    closeBundle() {
      cpSync(resolve('src/main/engine/store/migrations'), resolve('out/main/migrations'), { recursive: true });
    },
  };
}

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
          // The local sandbox platform, started by the engine as its own process.
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
    plugins: [react()],
    build: {
      rollupOptions: { input: { index: resolve('src/renderer/index.html') } },
    },
  },
});
