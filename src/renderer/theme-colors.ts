/**
 * Gray's light variant in the dark scheme is, by Mantine's default, gray 8 at 15%: near black on a dark card, so a
 * badge ("No", "Untrained", "No link") read as a hole. A lighter wash keeps it a badge.
 */
export const DARK_GRAY_LIGHT = {
  '--mantine-color-gray-light': 'rgba(134, 142, 150, 0.22)',
  '--mantine-color-gray-light-hover': 'rgba(134, 142, 150, 0.3)',
  '--mantine-color-gray-light-color': 'var(--mantine-color-gray-3)',
} as const;

/**
 * Mantine draws a colour's light variant in the dark scheme as its shade 9 at half brightness; yellow's shade 9 is
 * orange (#e67700), so a warning alert ("Showing the saved copy") came out a solid orange block where the others are
 * a dark tint of their colour. Yellow's own shade 6, darkened as far as the others, reads as a warning like them.
 */
export const DARK_YELLOW_LIGHT = {
  '--mantine-color-yellow-light': 'rgba(58, 46, 10, 1)',
  '--mantine-color-yellow-light-hover': 'rgba(80, 63, 14, 1)',
} as const;
