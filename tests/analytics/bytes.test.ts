/** The app's one byte formatter. */
import { describe, expect, it } from 'vitest';
import { formatBytes } from '../../src/shared/bytes';

describe('formatBytes', () => {
  it('writes whole bytes under a kilobyte, then one decimal under ten, then whole units', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(726)).toBe('726 B');
    expect(formatBytes(1023)).toBe('1023 B');
    expect(formatBytes(1024)).toBe('1 KB');
    expect(formatBytes(1452)).toBe('1.4 KB');
    expect(formatBytes(10_189)).toBe('10 KB');
    expect(formatBytes(150 * 1024)).toBe('150 KB');
    expect(formatBytes(5.5 * 1024 ** 2)).toBe('5.5 MB');
    expect(formatBytes(3 * 1024 ** 3)).toBe('3 GB');
    expect(formatBytes(null)).toBe('—');
    expect(formatBytes(Number.NaN)).toBe('—');
  });
});
