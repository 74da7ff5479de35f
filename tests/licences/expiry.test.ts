/** Where a licence stands by its end date: flagged from EXPIRY_WARNING_DAYS before it, and once it has passed. */
import { describe, expect, it } from 'vitest';
import { EXPIRY_WARNING_DAYS, expiryOf } from '../../src/shared/contract';

const now = new Date('2026-11-26T10:00:00Z');
const inDays = (days: number) => new Date(now.getTime() + days * 86_400_000).toISOString();

describe('expiryOf', () => {
  it('says none, ok, soon or past', () => {
    expect(expiryOf(null, now)).toBe('none');
    expect(expiryOf('not a date', now)).toBe('none');
    expect(expiryOf(inDays(EXPIRY_WARNING_DAYS + 1), now)).toBe('ok');
    expect(expiryOf(inDays(EXPIRY_WARNING_DAYS), now)).toBe('soon');
    expect(expiryOf(inDays(1), now)).toBe('soon');
    expect(expiryOf(now.toISOString(), now)).toBe('past');
    expect(expiryOf(inDays(-3), now)).toBe('past');
  });
});
