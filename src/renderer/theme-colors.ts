/**
 * Gray's light variant in the dark scheme is, by Mantine's default, gray 8 at 15%: near black on a dark card, so a
 * badge ("No", "Untrained", "No link") read as a hole. A lighter wash keeps it a badge.
 */
export const DARK_GRAY_LIGHT = {
  '--mantine-color-gray-light': 'rgba(134, 142, 150, 0.22)',
  '--mantine-color-gray-light-hover': 'rgba(134, 142, 150, 0.3)',
  '--mantine-color-gray-light-color': 'var(--mantine-color-gray-3)',
} as const;
