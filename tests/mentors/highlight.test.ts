/** Test knowledge marks whole words of the question in each passage (src/renderer/screens/mentors/highlight.ts). */
import { describe, expect, it } from 'vitest';
import { formatScore, highlightParts } from '../../src/renderer/screens/mentors/highlight';

const marked = (text: string, question: string) =>
  highlightParts(text, question)
    .filter((part) => part.hit)
    .map((part) => part.text);

describe('highlighting a passage for a question', () => {
  it('marks whole words only, never a word inside another', () => {
    expect(marked('We compare the stages of photosynthesis.', 'What are the stages of photosynthesis?')).toEqual([
      'stages',
      'photosynthesis',
    ]);
    expect(marked('Compare and prepare.', 'are')).toEqual([]);
    expect(marked('Cells are small.', 'are')).toEqual(['are']);
  });

  it('ignores case, accents and plural endings', () => {
    expect(marked('The LIMIT of a sequence; limits of functions.', 'limits')).toEqual(['LIMIT', 'limits']);
    expect(marked('Un café, deux cafés.', 'cafe')).toEqual(['café', 'cafés']);
    expect(marked('Two theories, one theory.', 'theory')).toEqual(['theories', 'theory']);
    expect(marked('Classes and a class.', 'class')).toEqual(['Classes', 'class']);
  });

  it('leaves filler words unmarked unless the question is nothing else', () => {
    expect(marked('What is the derivative of what?', 'what is the derivative')).toEqual(['derivative']);
    expect(marked('What is it?', 'what is')).toEqual(['What', 'is']);
  });

  it('keeps every character of the passage, in order', () => {
    const text = 'Limits: the limit of f(x) as x → 0 — compare limits.';
    expect(
      highlightParts(text, 'limit')
        .map((part) => part.text)
        .join(''),
    ).toBe(text);
  });
});

describe('a relevance score', () => {
  it('is never shown as 0.00 when it is not 0', () => {
    expect(formatScore(4.6977)).toBe('4.70');
    expect(formatScore(0.111)).toBe('0.11');
    expect(formatScore(0.000002)).toBe('0.0000020');
    expect(formatScore(0)).toBe('0');
    expect(formatScore(123.4)).toBe('123');
  });
});
