#!/usr/bin/env node
// The installed `mentor-admin` command: the bundled command line (out/main/cli.js) with plain Node. In a source
// checkout it is built first when missing or older than the sources (once after `npm ci` and after each change).
import module from 'node:module';
import { ensureBuilt } from '../scripts/ensure-build.mjs';

// Node 22.1 and later keep V8's compiled code of the bundle between runs (each command starts sooner); older Node
// has no such cache and compiles it at every start.
module.enableCompileCache?.();

try {
  await ensureBuilt(['main']);
} catch (error) {
  process.stderr.write(`mentor-admin: ${error.message}\n`);
  process.exit(1);
}
await import('../out/main/cli.js');
