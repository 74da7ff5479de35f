import { SegmentedControl, Select, Stack, Text, useMantineColorScheme } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useMemo } from 'react';
import { NavigationMode, Theme, type CallInput } from '../../../shared/contract';
import { notifyError } from '../../components/notify';
import { callKey, useCall, useMutationCall } from '../../queries/useCall';
import { colorSchemeFor } from '../../shell/themeMapping';
import { SettingsSection } from '../../components/SettingsSection';

const THEME_OPTIONS = [
  { value: 'system', label: 'System' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

const NAVIGATION_OPTIONS = [
  { value: 'auto', label: 'Automatic' },
  { value: 'full', label: 'Labels' },
  { value: 'rail', label: 'Icons only' },
];

/** Locales offered besides the system's own; any other BCP 47 tag can be set from the CLI or the settings file. */
const LOCALES = ['en-US', 'en-GB', 'de-DE', 'fr-FR', 'es-ES', 'it-IT', 'nl-NL', 'pt-BR', 'sv-SE', 'ja-JP', 'zh-CN'];

/** A fixed instant so each choice shows what it does: 25 Nov 2026, 19:31, and 12,480.5. */
const EXAMPLE_DATE = new Date(2026, 10, 25, 19, 31);

function example(locale: string | undefined): string {
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(EXAMPLE_DATE);
  const number = new Intl.NumberFormat(locale).format(12480.5);
  return `${date} · ${number}`;
}

type Patch = CallInput<'settings.set'>;

export function AppearanceSection() {
  const settings = useCall('settings.get', {});
  const saveSettings = useMutationCall('settings.set');
  const queryClient = useQueryClient();
  const { setColorScheme } = useMantineColorScheme();
  const themeLabelId = useId();
  const navigationLabelId = useId();
  const pending = saveSettings.isPending ? saveSettings.variables : undefined;

  const localeOptions = useMemo(() => {
    const system = new Intl.DateTimeFormat().resolvedOptions().locale;
    return [
      { value: 'system', label: `System (${system}) — ${example(undefined)}` },
      ...LOCALES.map((tag) => ({ value: tag, label: `${tag} — ${example(tag)}` })),
    ];
  }, []);
  const chosenLocale = pending?.formatLocale ?? settings.data?.formatLocale ?? 'system';
  const localeData = localeOptions.some((option) => option.value === chosenLocale)
    ? localeOptions
    : [...localeOptions, { value: chosenLocale, label: `${chosenLocale} — ${example(chosenLocale)}` }];

  function save(patch: Patch, what: string, undo?: () => void) {
    saveSettings.mutate(patch, {
      onSuccess: (saved) => queryClient.setQueryData(callKey('settings.get', {}), saved),
      onError: (error) => {
        undo?.();
        notifyError(`${what} not saved`, error);
      },
    });
  }

  function chooseTheme(value: string) {
    const theme = Theme.parse(value);
    const previous = settings.data?.theme;
    // Apply at once; the saved setting comes back through settings.get, and a failure puts the old one back.
    setColorScheme(colorSchemeFor(theme));
    save({ theme }, 'Theme', () => previous && setColorScheme(colorSchemeFor(previous)));
  }

  return (
    <SettingsSection title="Appearance" description="How Mentor Admin looks on this computer.">
      <Stack gap="md">
        <Stack gap={6}>
          <Text id={themeLabelId} size="sm" fw={500}>
            Theme
          </Text>
          <SegmentedControl
            aria-labelledby={themeLabelId}
            data={THEME_OPTIONS}
            value={pending?.theme ?? settings.data?.theme ?? 'system'}
            onChange={chooseTheme}
            disabled={settings.isPending}
            w={320}
          />
          <Text size="xs" c="dimmed">
            System follows your operating system's light or dark mode.
          </Text>
        </Stack>
        <Stack gap={6}>
          <Text id={navigationLabelId} size="sm" fw={500}>
            Sidebar
          </Text>
          <SegmentedControl
            aria-labelledby={navigationLabelId}
            data={NAVIGATION_OPTIONS}
            value={pending?.navigation ?? settings.data?.navigation ?? 'auto'}
            onChange={(value) => save({ navigation: NavigationMode.parse(value) }, 'Sidebar setting')}
            disabled={settings.isPending}
            w={320}
          />
          <Text size="xs" c="dimmed">
            Automatic shows icons only when the window is narrower than 1200 pixels.
          </Text>
        </Stack>
        <Select
          label="Dates and numbers"
          description="How every screen writes dates, times and numbers."
          data={localeData}
          value={chosenLocale}
          onChange={(value) => value && save({ formatLocale: value }, 'Date and number format')}
          allowDeselect={false}
          searchable
          disabled={settings.isPending}
          maw={480}
        />
      </Stack>
    </SettingsSection>
  );
}
