import { SegmentedControl, Stack, Text, useMantineColorScheme } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { Theme } from '../../../shared/contract';
import { notifyError } from '../../components/notify';
import { callKey, useCall, useMutationCall } from '../../queries/useCall';
import { colorSchemeFor } from '../../shell/themeMapping';
import { SettingsSection } from './SettingsSection';

const THEME_OPTIONS = [
  { value: 'system', label: 'System' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

export function AppearanceSection() {
  const settings = useCall('settings.get', {});
  const saveSettings = useMutationCall('settings.set');
  const queryClient = useQueryClient();
  const { setColorScheme } = useMantineColorScheme();
  const labelId = useId();

  function choose(value: string) {
    const theme = Theme.parse(value);
    const previous = settings.data?.theme;
    // Apply at once; the saved setting comes back through settings.get, and a failure puts the old one back.
    setColorScheme(colorSchemeFor(theme));
    saveSettings.mutate(
      { theme },
      {
        onSuccess: (saved) => queryClient.setQueryData(callKey('settings.get', {}), saved),
        onError: (error) => {
          if (previous) setColorScheme(colorSchemeFor(previous));
          notifyError('Theme not saved', error);
        },
      },
    );
  }

  return (
    <SettingsSection title="Appearance" description="How Mentor Admin looks on this computer.">
      <Stack gap={6}>
        <Text id={labelId} size="sm" fw={500}>
          Theme
        </Text>
        <SegmentedControl
          aria-labelledby={labelId}
          data={THEME_OPTIONS}
          value={(saveSettings.isPending ? saveSettings.variables?.theme : settings.data?.theme) ?? 'system'}
          onChange={choose}
          disabled={settings.isPending}
          w={320}
        />
        <Text size="xs" c="dimmed">
          System follows your operating system's light or dark mode.
        </Text>
      </Stack>
    </SettingsSection>
  );
}
