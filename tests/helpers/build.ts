/**
 * The build (out/) as tests use it. The global setup makes it current before any test runs (a few `stat`s when it
 * is, a build of a few seconds when a source changed): tests that spawn `mentor-admin`, browser mode or the sandbox
 * run what users run, built from the sources beside them.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { ensureBuilt } from '../../scripts/ensure-build.mjs';

export const OUT_MAIN = resolve('out/main');

export default async function setup(): Promise<void> {
  await ensureBuilt(['main']);
}

/**
 * A built entry's code with every chunk it imports, statically, however deep: all that runs when it is loaded. With
 * `dynamic`, chunks loaded later by `import('./…')` too (an engine area is loaded when the engine is composed with it).
 */
export function bundleText(entryFile: string, { dynamic = false } = {}): string {
  const seen = new Set<string>();
  const texts: string[] = [];
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    texts.push(text);
    for (const [, specifier] of text.matchAll(/^import\s[^'"]*?['"](\.{1,2}\/[^'"]+)['"]/gm)) {
      visit(join(dirname(file), specifier!));
    }
    if (!dynamic) return;
    for (const [, specifier] of text.matchAll(/\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g)) {
      visit(join(dirname(file), specifier!));
    }
  };
  visit(resolve(entryFile));
  return texts.join('\n');
}
