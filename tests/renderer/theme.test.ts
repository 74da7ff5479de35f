/** The dark scheme's washes (theme.ts adds them to Mantine's variables): lighter gray badges, tinted warnings. */
// Not theme.ts itself: importing Mantine here would give the tests' type-check the DOM's types.
import { describe, expect, it } from 'vitest';
import { DARK_GRAY_LIGHT, DARK_YELLOW_LIGHT } from '../../src/renderer/theme-colors';

/** Mantine's yellow 4: the alert's title and the icon in the dark scheme (theme.ts's light-variant text). */
const YELLOW_4 = '#ffd43b';

/** "rgba(66, 52, 12, 1)" or "#ffd43b" as [r, g, b]. */
function rgbOf(colour: string): [number, number, number] {
  const hex = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(colour);
  if (hex) return [1, 2, 3].map((i) => parseInt(hex[i]!, 16)) as [number, number, number];
  const [r, g, b] = (/rgba?\(\s*(\d+),\s*(\d+),\s*(\d+)/.exec(colour) ?? []).slice(1).map(Number);
  return [r!, g!, b!];
}

function hueOf([r, g, b]: [number, number, number]): number {
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  if (max === min) return 0;
  const h = max === r ? (g - b) / (max - min) : max === g ? 2 + (b - r) / (max - min) : 4 + (r - g) / (max - min);
  return (h * 60 + 360) % 360;
}

function luminanceOf(rgb: [number, number, number]): number {
  const [r, g, b] = rgb.map((c) => (c / 255 <= 0.03928 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

const contrast = (a: [number, number, number], b: [number, number, number]) => {
  const [light, dark] = [luminanceOf(a), luminanceOf(b)].sort((x, y) => y - x);
  return (light! + 0.05) / (dark! + 0.05);
};

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

  it('draws a yellow (warning) light alert as a dark yellow tint like the others, not a solid orange block', () => {
    const yellow = rgbOf(DARK_YELLOW_LIGHT['--mantine-color-yellow-light']);
    // Yellow's hue (Mantine's yellow 6 is 42°), not orange's (its default here, yellow 9 darkened, is 31°).
    expect(hueOf(yellow)).toBeGreaterThanOrEqual(38);
    expect(hueOf(yellow)).toBeLessThanOrEqual(55);
    // As dark as the other alerts' tints (blue's is rgb(12, 50, 86)), so white text and the yellow title read on it.
    expect(luminanceOf(yellow)).toBeLessThanOrEqual(luminanceOf([12, 50, 86]) * 1.2);
    expect(contrast(yellow, [255, 255, 255])).toBeGreaterThanOrEqual(7);
    expect(contrast(yellow, rgbOf(YELLOW_4))).toBeGreaterThanOrEqual(4.5);
  });
});
