import { describe, expect, it } from 'vitest';
import { asSentence } from '../../src/renderer/lib/sentence';

describe('asSentence', () => {
  it('ends text that has no end with a full stop', () => {
    expect(asSentence('Service Unavailable')).toBe('Service Unavailable.');
    expect(asSentence('  Done.  ')).toBe('Done.');
    expect(asSentence('Really?')).toBe('Really?');
  });

  it('takes an ellipsis as an end: no full stop after "Enrol from CSV…"', () => {
    expect(asSentence('enrol a cohort with Enrol from CSV…')).toBe('enrol a cohort with Enrol from CSV…');
    expect(asSentence('enrol a cohort with Enrol from CSV….')).toBe('enrol a cohort with Enrol from CSV…');
    expect(asSentence('wait...')).toBe('wait...');
  });
});
