#!/usr/bin/env node
/**
 * `npm run lint:electron`: Electron security lint of what actually ships.
 *
 * 1. Builds (electron-vite build; skip with --no-build), stages out/ for scanning (the preload bundle is .cjs,
 *    an extension Electronegativity skips, so it is staged as .js) and runs Electronegativity over main, preload
 *    and renderer together: its global checks (CSP, navigation limits, permission handler) need to see all three;
 *    a scan of one folder alone reports them all as missing.
 * 2. Fails on any finding not explained in electronegativity-allowlist.json (check id + file pattern, optionally
 *    a snippet of the flagged code or of the message, and the reason it is acceptable). An entry explains one
 *    finding unless it says `count`, so a second window or openExternal call is reported, not waved through.
 * 3. Fails if the sandboxed preload bundle requires anything but the few modules a sandbox provides.
 *
 * The report is read as SARIF, not CSV: Electronegativity 1.10 writes the CSV header and rows with two racing
 * asynchronous writes, so its CSV is sometimes cut. Offline it also says it cannot fetch Electron's releases;
 * that only disables its "newer Electron available" hint.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));
const ALLOWLIST = join(root, 'electronegativity-allowlist.json');
const PRELOAD_BUNDLE = join(root, 'out', 'preload', 'index.cjs');
/** What `require` can load inside a sandboxed preload. */
const SANDBOX_MODULES = new Set(['electron', 'events', 'timers', 'url', 'node:events', 'node:timers', 'node:url']);

function packageBin(name, bin) {
  return join(dirname(require.resolve(`${name}/package.json`)), bin);
}

function run(args, { capture = false } = {}) {
  return new Promise((resolvePromise) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: capture ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    child.on('error', (error) => resolvePromise({ code: 1, output: error.message }));
    child.on('close', (code) => resolvePromise({ code, output }));
  });
}

/** Findings from Electronegativity's SARIF report, with the flagged code read back from the scanned file. */
function readFindings(reportFile, scannedDir) {
  const sarif = JSON.parse(readFileSync(reportFile, 'utf8'));
  const results = sarif.runs?.[0]?.results ?? [];
  return results.map((result) => {
    const location = result.locations?.[0]?.physicalLocation ?? {};
    const uri = location.artifactLocation?.uri ?? 'file:///';
    const filename = uri === 'file:///' ? 'N/A' : uri.replaceAll('\\', '/');
    const { startLine = 1, startColumn = 1, charLength = 0 } = location.region ?? {};
    // Electronegativity's own sample is the flagged source line; SARIF only keeps its length, so read it back.
    const sample =
      filename !== 'N/A' && charLength > 0
        ? (readFileSync(join(scannedDir, filename), 'utf8').split('\n')[startLine - 1] ?? '').trim()
        : '';
    return {
      issue: result.ruleId,
      level: result.level,
      filename,
      location: `${startLine}:${startColumn}`,
      sample,
      description: result.message?.text ?? '',
      url: `https://github.com/doyensec/electronegativity/wiki/${result.ruleId}`,
    };
  });
}

/** A copy of out/ as Electronegativity can read it: every .cjs also as .js. */
function stageBuild(work) {
  const staged = join(work, 'scan');
  for (const part of ['main', 'preload', 'renderer'])
    cpSync(join(root, 'out', part), join(staged, part), { recursive: true });
  const preload = join(staged, 'preload', 'index.cjs');
  if (existsSync(preload)) renameSync(preload, join(staged, 'preload', 'index.js'));
  return staged;
}

/** `*` matches within a path segment, `**` across segments; everything else is literal. */
function globToRegExp(pattern) {
  const escaped = pattern
    .split('**')
    .map((part) =>
      part
        .split('*')
        .map((piece) => piece.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('[^/]*'),
    )
    .join('.*');
  return new RegExp(`^${escaped}$`);
}

function loadAllowlist() {
  const entries = JSON.parse(readFileSync(ALLOWLIST, 'utf8'));
  if (!Array.isArray(entries)) throw new Error('electronegativity-allowlist.json must be an array');
  for (const entry of entries) {
    if (!entry.check || !entry.file || !entry.reason || entry.reason.trim().length < 20) {
      throw new Error(`Allowlist entry needs check, file and a real reason: ${JSON.stringify(entry)}`);
    }
  }
  return entries.map((entry) => ({ ...entry, matcher: globToRegExp(entry.file), used: 0 }));
}

function isAllowed(finding, allowlist) {
  const file = finding.filename.replaceAll('\\', '/');
  const entry = allowlist.find(
    (candidate) =>
      candidate.used < (candidate.count ?? 1) &&
      candidate.check === finding.issue &&
      candidate.matcher.test(file) &&
      (!candidate.sample || finding.sample.includes(candidate.sample)) &&
      (!candidate.description || finding.description.includes(candidate.description)),
  );
  if (entry) entry.used++;
  return Boolean(entry);
}

function preloadProblems() {
  if (!existsSync(PRELOAD_BUNDLE)) return [`${PRELOAD_BUNDLE} is missing; build first`];
  const source = readFileSync(PRELOAD_BUNDLE, 'utf8');
  const required = [...source.matchAll(/\brequire\(\s*["'`]([^"'`]+)["'`]\s*\)/g)].map((match) => match[1]);
  return [...new Set(required)]
    .filter((name) => !SANDBOX_MODULES.has(name))
    .map((name) => `out/preload/index.cjs requires '${name}', which a sandboxed preload cannot load: bundle it`);
}

async function main() {
  if (!process.argv.includes('--no-build')) {
    const build = await run([packageBin('electron-vite', 'bin/electron-vite.js'), 'build'], { capture: true });
    if (build.code !== 0) {
      process.stderr.write(build.output);
      console.error('lint:electron: the build failed');
      return 1;
    }
  }

  const electronVersion = JSON.parse(readFileSync(require.resolve('electron/package.json'), 'utf8')).version;
  const work = mkdtempSync(join(tmpdir(), 'mentor-admin-electronegativity-'));
  const report = join(work, 'report.sarif');
  try {
    const staged = stageBuild(work);
    const scan = await run(
      [
        packageBin('@doyensec/electronegativity', 'dist/index.js'),
        ...['-i', staged, '-e', electronVersion, '-r', '-v', 'false', '-o', report],
      ],
      { capture: true },
    );
    if (!existsSync(report)) {
      process.stderr.write(scan.output);
      console.error('lint:electron: Electronegativity produced no report');
      return 1;
    }
    const findings = readFindings(report, staged);
    const allowlist = loadAllowlist();
    const unexplained = findings.filter((finding) => !isAllowed(finding, allowlist));
    const problems = preloadProblems();

    for (const finding of unexplained) {
      console.error(
        `${finding.issue} (${finding.level}) ${finding.filename}:${finding.location} ${finding.description}` +
          `${finding.sample ? `\n    ${finding.sample}` : ''}\n    ${finding.url}`,
      );
    }
    for (const problem of problems) console.error(problem);
    for (const entry of allowlist.filter((candidate) => candidate.used === 0)) {
      console.warn(`lint:electron: allowlist entry ${entry.check} ${entry.file} matched nothing; remove it if stale`);
    }

    const allowed = findings.length - unexplained.length;
    if (unexplained.length > 0 || problems.length > 0) {
      console.error(
        `lint:electron: ${unexplained.length} unexplained finding(s), ${problems.length} preload problem(s); ` +
          `${allowed} allowlisted. Fix them, or explain them in electronegativity-allowlist.json.`,
      );
      return 1;
    }
    process.stdout.write(
      `lint:electron: OK (Electron ${electronVersion}; ${findings.length} finding(s), all allowlisted with reasons).\n`,
    );
    return 0;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

process.exitCode = await main();
