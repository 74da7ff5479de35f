#!/usr/bin/env node
/**
 * `npm run electron:native`: puts an Electron-ABI build of better-sqlite3 at native/electron/better_sqlite3.node.
 *
 * node_modules/better-sqlite3 stays built for Node (tests, CLI, browser mode); the Electron app loads this second
 * binary through better-sqlite3's `nativeBinding` option, so the two never overwrite each other. The build
 * happens in a temporary copy of the package: first a prebuilt binary (prebuild-install --runtime electron),
 * else a compile against Electron's headers (node-gyp --target=<electron> --dist-url=electronjs.org/headers).
 *
 * Usage: node scripts/electron-native.mjs [--force] [--quiet]
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));

export const NATIVE_DIR = join(root, 'native', 'electron');
export const NATIVE_BINDING = join(NATIVE_DIR, 'better_sqlite3.node');
const BUILD_INFO = join(NATIVE_DIR, 'better_sqlite3.json');

const PREBUILD_TIMEOUT_MS = 60_000;
const COMPILE_TIMEOUT_MS = 15 * 60_000;

function readJson(file) {
  return JSON.parse(readFileSync(file, 'utf8'));
}

/** What the binary must match: rebuilt whenever Electron, better-sqlite3 or the machine changes. */
function wantedBuild() {
  return {
    electron: readJson(require.resolve('electron/package.json')).version,
    betterSqlite3: readJson(require.resolve('better-sqlite3/package.json')).version,
    platform: process.platform,
    arch: process.arch,
  };
}

function isUpToDate(wanted) {
  if (!existsSync(NATIVE_BINDING) || !existsSync(BUILD_INFO)) return false;
  try {
    const built = readJson(BUILD_INFO);
    return Object.entries(wanted).every(([key, value]) => built[key] === value);
  } catch {
    return false;
  }
}

/**
 * npm passes its configuration to scripts as npm_config_* variables; a `nodedir`, `target` or `runtime` meant
 * for Node builds would silently produce a Node-ABI binary here, so those are dropped.
 */
function buildEnv() {
  const dropped = new Set([
    'nodedir',
    'target',
    'runtime',
    'disturl',
    'dist_url',
    'arch',
    'target_arch',
    'build_from_source',
  ]);
  const env = {};
  for (const [key, value] of Object.entries(process.env)) {
    const lower = key.toLowerCase();
    if (lower.startsWith('npm_config_') && dropped.has(lower.slice('npm_config_'.length))) continue;
    env[key] = value;
  }
  return env;
}

/** Runs a command, collecting its output; resolves with the exit code (or 'timeout' / the spawn error). */
function run(command, args, { cwd, timeoutMs, verbose }) {
  return new Promise((resolvePromise) => {
    const child = spawn(command, args, { cwd, env: buildEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const collect = (chunk) => {
      output += chunk;
      if (verbose) process.stderr.write(chunk);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolvePromise({ code: 'timeout', output });
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolvePromise({ code: error.message, output });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, output });
    });
  });
}

/** The most telling part of a failed tool's output, for a one-line explanation. */
function summarize({ code, output }, timeoutMs) {
  if (code === 'timeout') return `gave up after ${Math.round(timeoutMs / 1000)} s`;
  const url = output.match(/GET (https?:\/\/\S+)/)?.[1];
  const network = output.match(/ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ENETUNREACH|EHOSTUNREACH|ETIMEDOUT|ECONNRESET/)?.[0];
  if (url && (network || /network connectivity/i.test(output))) {
    return `could not download ${url} (${network ?? 'network error'})`;
  }
  const lines = output
    .split('\n')
    .map((line) => line.replace(/^(prebuild-install|gyp) (warn|info|ERR!|err!)\s*/i, '').trim())
    .filter((line) => line && !/^(not ok|stack |System |command |cwd |node -v|node-gyp -v)/.test(line));
  return (lines.find((line) => /error/i.test(line)) ?? lines.at(-1) ?? `exit code ${code}`).slice(0, 200);
}

function nodeGypScript() {
  const candidates = [
    () => require.resolve('node-gyp/bin/node-gyp.js'),
    // npm ships node-gyp for install scripts; use that one rather than downloading another.
    () =>
      join(
        dirname(process.execPath),
        '..',
        'lib',
        'node_modules',
        'npm',
        'node_modules',
        'node-gyp',
        'bin',
        'node-gyp.js',
      ),
    () => join(dirname(process.execPath), 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
  ];
  if (process.env.npm_config_node_gyp) candidates.unshift(() => process.env.npm_config_node_gyp);
  for (const candidate of candidates) {
    try {
      const path = candidate();
      if (path && existsSync(path)) return path;
    } catch {
      // try the next place
    }
  }
  return undefined;
}

/**
 * Makes sure native/electron/better_sqlite3.node exists for the installed Electron.
 * Resolves `{ ok: true, how }` or `{ ok: false, reason }`; never throws.
 */
export async function ensureElectronNative({ force = false, verbose = false } = {}) {
  let wanted;
  try {
    wanted = wantedBuild();
  } catch (error) {
    return { ok: false, reason: `electron or better-sqlite3 is not installed (${error.message})` };
  }
  if (!force && isUpToDate(wanted)) return { ok: true, how: 'already built' };

  const work = mkdtempSync(join(tmpdir(), 'mentor-admin-native-'));
  try {
    const source = dirname(require.resolve('better-sqlite3/package.json'));
    const pkg = join(work, 'better-sqlite3');
    // The copy leaves out build/ (the Node binary and its object files).
    cpSync(source, pkg, { recursive: true, filter: (path) => path !== join(source, 'build') });
    const built = join(pkg, 'build', 'Release', 'better_sqlite3.node');
    const failures = [];

    const prebuild = await run(
      process.execPath,
      [
        require.resolve('prebuild-install/bin.js'),
        '--runtime=electron',
        `--target=${wanted.electron}`,
        `--arch=${wanted.arch}`,
        `--platform=${wanted.platform}`,
        '--verbose',
      ],
      { cwd: pkg, timeoutMs: PREBUILD_TIMEOUT_MS, verbose },
    );
    let how = 'prebuilt binary';
    if (prebuild.code !== 0 || !existsSync(built)) {
      failures.push(`no prebuilt binary: ${summarize(prebuild, PREBUILD_TIMEOUT_MS)}`);
      const gyp = nodeGypScript();
      if (!gyp) {
        failures.push('node-gyp not found');
        return { ok: false, reason: failures.join('; ') };
      }
      const compile = await run(
        process.execPath,
        [
          gyp,
          'rebuild',
          '--release',
          '--runtime=electron',
          `--target=${wanted.electron}`,
          `--arch=${wanted.arch}`,
          '--dist-url=https://electronjs.org/headers',
        ],
        { cwd: pkg, timeoutMs: COMPILE_TIMEOUT_MS, verbose },
      );
      if (compile.code !== 0 || !existsSync(built)) {
        failures.push(
          `compiling against Electron ${wanted.electron} headers failed: ${summarize(compile, COMPILE_TIMEOUT_MS)}`,
        );
        return { ok: false, reason: failures.join('; ') };
      }
      how = 'compiled from source';
    }

    mkdirSync(NATIVE_DIR, { recursive: true });
    cpSync(built, NATIVE_BINDING);
    writeFileSync(BUILD_INFO, `${JSON.stringify({ ...wanted, how, builtAt: new Date().toISOString() }, null, 2)}\n`);
    return { ok: true, how };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

async function main() {
  const args = new Set(process.argv.slice(2));
  const result = await ensureElectronNative({ force: args.has('--force'), verbose: !args.has('--quiet') });
  if (result.ok) {
    process.stdout.write(`Electron build of better-sqlite3 ready at ${NATIVE_BINDING} (${result.how}).\n`);
    return;
  }
  console.error(`Could not make an Electron build of better-sqlite3: ${result.reason}`);
  console.error('It needs network access to Electron headers (or a prebuilt binary) and a C++ toolchain; see README.');
  process.exitCode = 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) await main();
