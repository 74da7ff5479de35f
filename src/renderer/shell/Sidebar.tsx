import { AppShell, NavLink, Text } from '@mantine/core';
import { useCall } from '../queries/useCall';
import { SCREENS, type ScreenDefinition } from './screens';

interface SidebarProps {
  current: ScreenDefinition;
  onNavigate(id: string): void;
}

export function Sidebar({ current, onNavigate }: SidebarProps) {
  return (
    <>
      <AppShell.Section grow component="nav" aria-label="Screens" p="sm">
        {SCREENS.map((screen) => (
          <NavLink
            key={screen.id}
            href={`#/${screen.id}`}
            label={screen.label}
            leftSection={<screen.icon />}
            rightSection={screen.badge ? <screen.badge /> : undefined}
            active={screen.id === current.id}
            aria-current={screen.id === current.id ? 'page' : undefined}
            onClick={() => onNavigate(screen.id)}
            variant="light"
            style={{ borderRadius: 'var(--mantine-radius-md)' }}
          />
        ))}
      </AppShell.Section>
      <AppShell.Section p="md">
        <AppInfoFooter />
      </AppShell.Section>
    </>
  );
}

/** Version and mode at the foot of the sidebar; a warning when the keychain is out of reach. */
function AppInfoFooter() {
  const info = useCall('app.info', {});
  if (!info.data) return null;
  const { version, shell, keychain } = info.data;
  return (
    <>
      {!keychain.available && (
        <Text size="xs" c="orange" mb={4}>
          Keychain unavailable: {keychain.message}
        </Text>
      )}
      <Text size="xs" c="dimmed">
        Version {version} · {shell === 'browser' ? 'browser mode' : shell}
      </Text>
    </>
  );
}
