/** The app's colour variables on top of Mantine's: what the dark scheme changes, and why it matters on screen. */
import { mergeMantineTheme, DEFAULT_THEME } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { cssVariablesResolver, theme } from '../../src/renderer/theme';

const resolved = cssVariablesResolver(mergeMantineTheme(DEFAULT_THEME, theme));

describe('dark scheme colours', () => {
  it('keeps coloured action text coloured (shade 4, not near-white shade 0)', () => {
    expect(resolved.dark['--mantine-color-red-light-color']).toBe('var(--mantine-color-red-4)');
  });

  it('gives gray light badges a visible wash, not near black on a dark card', () => {
    const wash = resolved.dark['--mantine-color-gray-light'];
    const alpha = Number(/rgba\(\s*\d+,\s*\d+,\s*\d+,\s*([\d.]+)\)/.exec(wash ?? '')?.[1]);
    const [r] = (/rgba\(\s*(\d+)/.exec(wash ?? '') ?? []).slice(1).map(Number);
    // Gray 6 or lighter at a fifth or more: lighter than the card it sits on.
    expect(r).toBeGreaterThanOrEqual(134);
    expect(alpha).toBeGreaterThanOrEqual(0.2);
    expect(resolved.dark['--mantine-color-gray-light-color']).toBe('var(--mantine-color-gray-3)');
  });
});
