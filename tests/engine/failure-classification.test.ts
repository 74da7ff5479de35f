/**
 * One classification of a failed platform answer ("not taken" / transient / final), decided in platform/retry.ts.
 * An area that compares a status with a server-error range or with the "come back later" statuses itself is making
 * that decision a second time, and the copies drift (one forgot 408, one failed a reply on a 429). This scans the
 * engine areas for such comparisons; a status with a meaning of its own (400, 401, 403, 404, 413, 501) is theirs.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApiError, classifyFailure, NetworkError, TimeoutError } from '../../src/main/engine/platform';

const ROOT = join(import.meta.dirname, '../..');
const ENGINE = join(ROOT, 'src/main/engine');

/** Where the decision lives, and the one file that looks at statuses of hosts that are not the platform. */
const EXEMPT = new Map([
  ['src/main/engine/platform/', 'the classification itself, and the transport that follows it'],
  ['src/main/engine/tickets/images.ts', 'fetches image hosts through the SSRF guard, not the platform'],
]);

/** A status compared with a range, with a "not now" status, or listed in a set of them. */
const CLASSIFYING = [
  /\bstatus\s*[<>]=?\s*\d{3}\b/,
  /\b\d{3}\s*[<>]=?\s*(?:\w+\.)*status\b/,
  /\bstatus\s*[!=]==?\s*(?:408|429|500|502|503|504)\b/,
  /\[[^\]\n]*\b(?:408|429|502|503|504)\b[^\]\n]*\]/,
];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

function classifyingLines(files: string[]): string[] {
  const found: string[] = [];
  for (const file of files) {
    const name = relative(ROOT, file);
    if ([...EXEMPT.keys()].some((exempt) => name.startsWith(exempt))) continue;
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((text, index) => {
        if (CLASSIFYING.some((pattern) => pattern.test(text))) found.push(`${name}:${index + 1}: ${text.trim()}`);
      });
  }
  return found;
}

describe('one classification of a failed platform answer', () => {
  it('is made in platform/retry.ts only: no engine area compares statuses with 5xx, 408 or 429 itself', () => {
    expect(classifyingLines(sources(ENGINE))).toEqual([]);
  });

  it('the scan finds the comparisons the areas used to make', () => {
    const copies = [
      'error.status >= 500 || error.status === 429',
      'error.status < 500 && error.status !== 401',
      'error.status >= 400 && error.status < 500',
      'if (!(error instanceof ApiError && error.status === 408)) {',
      'const LOAD = new Set([429, 503, 504]);',
    ];
    for (const line of copies)
      expect(
        CLASSIFYING.some((pattern) => pattern.test(line)),
        line,
      ).toBe(true);
    for (const line of ['error.status === 404', 'error.status === 401', '[400, 404, 409, 422].includes(status)'])
      expect(
        CLASSIFYING.some((pattern) => pattern.test(line)),
        line,
      ).toBe(false);
  });

  it('sorts every failure into not taken, transient or final', () => {
    const answer = (status: number) => new ApiError({ url: 'https://h/api/x/', status });
    expect([408, 429].map((status) => classifyFailure(answer(status)))).toEqual(['not-taken', 'not-taken']);
    expect(
      [answer(500), answer(502), answer(503), answer(504), new NetworkError('https://h/', 'ECONNRESET')].map(
        classifyFailure,
      ),
    ).toEqual(Array(5).fill('transient'));
    expect(classifyFailure(new TimeoutError('https://h/'))).toBe('transient');
    expect([400, 401, 403, 404, 409, 413, 422].map((status) => classifyFailure(answer(status)))).toEqual(
      Array(7).fill('final'),
    );
    expect(classifyFailure(new Error('bug'))).toBe('final');
  });
});
