import type { MantineColorScheme } from '@mantine/core';
import type { Theme } from '../../shared/contract';

/** The contract says `system`; Mantine says `auto`. */
export function colorSchemeFor(theme: Theme): MantineColorScheme {
  return theme === 'system' ? 'auto' : theme;
}
