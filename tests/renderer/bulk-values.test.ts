import { describe, expect, it } from 'vitest';
import { pickedValues } from '../../src/renderer/screens/mentors/bulkValues';

describe('a bulk change of mentors’ settings', () => {
  const nullable = new Set(['initial_message']);
  const blankAllowed = (name: string) => nullable.has(name);

  it('asks for a value when a picked setting is left blank', () => {
    const { blank } = pickedValues(['name', 'proactive'], { proactive: false }, blankAllowed);
    expect(blank).toEqual(['name']);
    expect(pickedValues(['name'], { name: '' }, blankAllowed).blank).toEqual(['name']);
  });

  it('sends null for a blank the spec allows (the review says it will be cleared), and given values as they are', () => {
    const { values, blank } = pickedValues(['initial_message', 'proactive'], { proactive: false }, blankAllowed);
    expect(blank).toEqual([]);
    expect(values).toEqual({ initial_message: null, proactive: false });
  });
});
