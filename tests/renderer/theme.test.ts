/** The dark scheme's gray wash (theme.ts adds it to Mantine's variables): lighter than the card it sits on. */
import { describe, expect, it } from 'vitest';
import { DARK_GRAY_LIGHT } from '../../src/renderer/theme-colors';

describe('dark scheme colours', () => {
  it('gives gray light badges a visible wash, not near black on a dark card', () => {
    const [red, alpha] = (
      /rgba\(\s*(\d+),\s*\d+,\s*\d+,\s*([\d.]+)\)/.exec(DARK_GRAY_LIGHT['--mantine-color-gray-light']) ?? []
    )
      .slice(1)
      .map(Number);
    // Gray 6 or lighter (Mantine's default is gray 8, red 52) at a fifth or more.
    expect(red).toBeGreaterThanOrEqual(134);
    expect(alpha).toBeGreaterThanOrEqual(0.2);
    expect(DARK_GRAY_LIGHT['--mantine-color-gray-light-color']).toBe('var(--mantine-color-gray-3)');
  });
});
