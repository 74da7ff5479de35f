import { Anchor, AppShell, NavLink, Text } from '@mantine/core';
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

/**
 * Version and mode at the foot of the sidebar; one line when the keychain is out of reach (Settings → Tenants says
 * what to do), unless MENTOR_ADMIN_API_KEY supplies the key.
 */
function AppInfoFooter() {
  const info = useCall('app.info', {});
  if (!info.data) return null;
  const { version, shell, keychain, envKey } = info.data;
  return (
    <>
      {!keychain.available && !envKey && (
        <Text size="xs" c="orange" mb={4} truncate="end" title={keychain.message} data-testid="keychain-warning">
          Keychain unavailable ·{' '}
          <Anchor href="#/settings" size="xs" inherit>
            help
          </Anchor>
        </Text>
      )}
      <Text size="xs" c="dimmed">
        Version {version} · {shell === 'browser' ? 'browser mode' : shell}
      </Text>
    </>
  );
}
