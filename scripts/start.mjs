#!/usr/bin/env node
/**
 * `npm start`: the desktop app when Electron can run on this machine, otherwise browser mode (`npm run web`).
 *
 * Electron needs a display, its binary (downloaded on first use by node_modules/electron/install.js) and an
 * Electron-ABI better-sqlite3 (scripts/electron-native.mjs). Those are checked cheapest first and the download
 * is capped, so a headless or offline machine falls back in seconds with one line saying why. Arguments after
 * `--` go to the app (e.g. `npm start -- --port 8080` in browser mode).
 */
import { spawn } from 'node:child_process';
import { lookup } from 'node:dns/promises';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureElectronNative } from './electron-native.mjs';
import { ensureBuilt } from './ensure-build.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));
const passThrough = process.argv.slice(2);

const ELECTRON_DOWNLOAD_TIMEOUT_MS = 60_000;

function oneLine(text) {
  return String(text).replace(/\s+/g, ' ').trim().slice(0, 240);
}

/** Linux (and the BSDs) need an X11 or Wayland display; macOS and Windows always have one. */
function displayProblem() {
  if (!['linux', 'freebsd', 'openbsd'].includes(process.platform)) return undefined;
  if (process.env.DISPLAY || process.env.WAYLAND_DISPLAY) return undefined;
  return 'no display: DISPLAY and WAYLAND_DISPLAY are unset';
}

/** Where node_modules/electron/index.js would find the binary, without its unbounded synchronous download. */
function installedElectron(electronDir) {
  const pathFile = join(electronDir, 'path.txt');
  if (!existsSync(pathFile)) return undefined;
  const dist = process.env.ELECTRON_OVERRIDE_DIST_PATH || join(electronDir, 'dist');
  const binary = join(dist, readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? binary : undefined;
}

function runCaptured(command, args, timeoutMs) {
  return new Promise((resolvePromise) => {
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolvePromise({ code: 'timeout', output });
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolvePromise({ code: 'error', output: error.message });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, output });
    });
  });
}

/** Resolves `{ binary }` or `{ reason }`. */
async function electronBinary() {
  let electronDir;
  try {
    electronDir = dirname(require.resolve('electron/package.json'));
  } catch {
    return { reason: 'the electron package is not installed' };
  }
  const installed = installedElectron(electronDir);
  if (installed) return { binary: installed };

  const { version } = JSON.parse(readFileSync(join(electronDir, 'package.json'), 'utf8'));
  const result = await runCaptured(process.execPath, [join(electronDir, 'install.js')], ELECTRON_DOWNLOAD_TIMEOUT_MS);
  const downloaded = installedElectron(electronDir);
  if (downloaded) return { binary: downloaded };
  if (result.code === 'timeout') {
    return { reason: `downloading Electron ${version} took over ${ELECTRON_DOWNLOAD_TIMEOUT_MS / 1000} s` };
  }
  // install.js prints only the error's stack ("TypeError: fetch failed"); name the host when it is unreachable.
  const firstLine = result.output.split('\n').find((line) => line.trim() && !/Downloading Electron/i.test(line));
  const host = downloadHost();
  const unreachable = await lookup(host).then(
    () => undefined,
    (error) => error.code ?? 'lookup failed',
  );
  if (unreachable) return { reason: `cannot reach ${host} to download Electron ${version}: ${unreachable}` };
  return { reason: `downloading Electron ${version} failed: ${oneLine(firstLine ?? `exit code ${result.code}`)}` };
}

/** The host @electron/get downloads from (a mirror if one is configured). */
function downloadHost() {
  const mirror =
    process.env.ELECTRON_MIRROR || process.env.electron_config_mirror || process.env.npm_config_electron_mirror;
  try {
    return new URL(mirror || 'https://github.com').hostname;
  } catch {
    return 'github.com';
  }
}

const SIGNAL_NUMBERS = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 };

/** Runs a child with inherited stdio until it ends and resolves its exit code (128 + signal if killed). */
function runToEnd(command, args, options = {}) {
  return new Promise((resolvePromise) => {
    const child = spawn(command, args, { cwd: root, stdio: 'inherit', ...options });
    // Ctrl+C already reaches the child (same process group): stay alive while it shuts down, and do not send a
    // second SIGINT that would cut its graceful stop short. SIGTERM/SIGHUP come to this process only: pass them on.
    const waitForChild = () => {};
    const forward = (signal) => child.kill(signal);
    process.on('SIGINT', waitForChild);
    process.on('SIGTERM', forward);
    process.on('SIGHUP', forward);
    const settle = (code) => {
      process.off('SIGINT', waitForChild);
      process.off('SIGTERM', forward);
      process.off('SIGHUP', forward);
      resolvePromise(code);
    };
    child.on('error', (error) => {
      console.error(`Could not start ${command}: ${error.message}`);
      settle(1);
    });
    child.on('exit', (code, signal) => settle(code ?? 128 + (SIGNAL_NUMBERS[signal] ?? 1)));
  });
}

function hasScript(name) {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  return Boolean(pkg.scripts?.[name]);
}

async function browserMode(reason) {
  process.stdout.write(
    `Electron is not available here (${oneLine(reason)}); opening Mentor Admin in browser mode instead.\n`,
  );
  const args = passThrough.length > 0 ? ['--', ...passThrough] : [];
  if (hasScript('web') && process.env.npm_execpath) {
    return runToEnd(process.execPath, [process.env.npm_execpath, 'run', '--silent', 'web', ...args]);
  }
  if (hasScript('web')) {
    return runToEnd('npm', ['run', '--silent', 'web', ...args], { shell: process.platform === 'win32' });
  }
  try {
    await ensureBuilt(['main', 'renderer']);
  } catch (error) {
    console.error(error.message);
    return 1;
  }
  return runToEnd(process.execPath, [join(root, 'out', 'main', 'web.js'), ...passThrough]);
}

async function main() {
  const noDisplay = displayProblem();
  if (noDisplay) return browserMode(noDisplay);

  const electron = await electronBinary();
  if (!electron.binary) return browserMode(electron.reason);

  const electronVite = join(dirname(require.resolve('electron-vite/package.json')), 'bin', 'electron-vite.js');
  const build = await runToEnd(process.execPath, [electronVite, 'build']);
  if (build !== 0) {
    console.error('The build failed; fix the errors above and run `npm start` again.');
    return build;
  }

  const native = await ensureElectronNative({ verbose: false });
  if (!native.ok) return browserMode(`no Electron build of better-sqlite3 could be made: ${native.reason}`);

  // ELECTRON_RUN_AS_NODE would turn the binary into plain Node and ignore the app.
  const env = { ...process.env };
  delete env.ELECTRON_RUN_AS_NODE;
  return runToEnd(electron.binary, ['.', ...passThrough], { env });
}

process.exitCode = await main();
