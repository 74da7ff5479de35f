import { useMantineColorScheme } from '@mantine/core';
import { useEffect } from 'react';
import { useCall } from '../queries/useCall';
import { colorSchemeFor } from './themeMapping';

/**
 * Applies the engine's theme setting through Mantine's color scheme manager. The manager also keeps a copy in
 * localStorage, only so the next start paints in the right scheme before the engine answers.
 */
export function ThemeSync() {
  const settings = useCall('settings.get', {});
  const { setColorScheme } = useMantineColorScheme();
  const theme = settings.data?.theme;
  useEffect(() => {
    if (theme) setColorScheme(colorSchemeFor(theme));
  }, [theme, setColorScheme]);
  return null;
}
