/**
 * `npm run bench -- [NAME] [--json]`: runs the benchmark suites of this folder whose file name, or one of whose
 * metric names, contains NAME (all suites without one) and prints one JSON object per line on stdout:
 * `{"name","value","unit","goal"}`. With --json nothing else goes to stdout; without it a table follows on stderr.
 *
 * A suite is a module here exporting `run(log, only?)` that resolves to those objects; it may export `metrics`
 * (the names it reports) so `npm run bench -- scan` finds `scan.vs_find` in train.ts and runs only that part.
 * Helpers the suites share live in bench/lib/, which is not read for suites.
 */
import { readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BenchResult } from './lib/suite';

interface Suite {
  run: (log: (line: string) => void, only?: string[]) => Promise<BenchResult[]>;
  metrics?: string[];
}

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const json = args.includes('--json');
const patterns = args.filter((arg) => !arg.startsWith('--'));
const log = (line: string) => process.stderr.write(`${line}\n`);

/** "<= 3", ">= 0.9", "== 0" (a bare number means at most that). */
function meetsGoal(value: number, goal: string): boolean | null {
  const match = /^\s*(<=|>=|==|<|>)?\s*(-?[\d.]+)/.exec(goal);
  if (!match) return null;
  const target = Number(match[2]);
  switch (match[1] ?? '<=') {
    case '>=':
      return value >= target;
    case '>':
      return value > target;
    case '<':
      return value < target;
    case '==':
      return value === target;
    default:
      return value <= target;
  }
}

async function main(): Promise<number> {
  const files = readdirSync(here)
    .filter((file) => file.endsWith('.ts') && file !== 'run.ts')
    .sort();
  const results: BenchResult[] = [];
  let failed = false;
  for (const file of files) {
    const name = basename(file, '.ts');
    const byFile = !patterns.length || patterns.some((pattern) => name.includes(pattern));
    const module = (await import(pathToFileURL(join(here, file)).href)) as Partial<Suite>;
    if (typeof module.run !== 'function') continue;
    const only = byFile
      ? undefined
      : (module.metrics ?? []).filter((metric) => patterns.some((pattern) => metric.includes(pattern)));
    if (!byFile && !only?.length) continue;
    log(`== ${name}${only ? ` (${only.join(', ')})` : ''}`);
    const started = performance.now();
    try {
      const figures = await module.run(log, only);
      for (const figure of figures) {
        if (only && !only.includes(figure.name)) continue;
        results.push(figure);
        process.stdout.write(`${JSON.stringify(figure)}\n`);
      }
    } catch (error) {
      failed = true;
      log(`${name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
    log(`   ${name} took ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  if (!results.length && !failed) log(`No benchmark matches ${patterns.join(' ')}`);
  if (!json && results.length) {
    const width = Math.max(...results.map((r) => r.name.length));
    log('');
    for (const r of results) {
      const met = meetsGoal(r.value, r.goal);
      log(
        `${met === null ? ' ' : met ? '✓' : '✗'} ${r.name.padEnd(width)}  ${String(r.value).padStart(10)} ${r.unit.padEnd(8)} goal ${r.goal}`,
      );
    }
  }
  return failed ? 1 : 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    log(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exitCode = 1;
  },
);
