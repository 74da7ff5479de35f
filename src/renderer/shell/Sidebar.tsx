import { ActionIcon, Anchor, AppShell, Box, NavLink, ScrollArea, Text, Tooltip } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { CollapseIcon, ExpandIcon, WarningIcon } from '../components/icons';
import { notifyError } from '../components/notify';
import { callKey, useCall, useMutationCall } from '../queries/useCall';
import { toggledMode } from './navigationMode';
import { SCREENS, type ScreenDefinition } from './screens';

interface SidebarProps {
  current: ScreenDefinition;
  /** Icons only, each named by a tooltip and its accessible name. */
  rail: boolean;
  onNavigate(id: string): void;
}

export function Sidebar({ current, rail, onNavigate }: SidebarProps) {
  return (
    <>
      {/* The screens scroll between the header and the foot: in a short window there are more than fit. */}
      <AppShell.Section grow component={ScrollArea} type="auto" scrollbarSize={6} mih={0}>
        <Box component="nav" aria-label="Screens" p={rail ? 'xs' : 'sm'}>
          {SCREENS.map((screen) => {
            const active = screen.id === current.id;
            const link = (
              <NavLink
                key={screen.id}
                href={`#/${screen.id}`}
                label={rail ? undefined : screen.label}
                aria-label={rail ? screen.label : undefined}
                leftSection={<screen.icon />}
                rightSection={!rail && screen.badge ? <screen.badge /> : undefined}
                active={active}
                aria-current={active ? 'page' : undefined}
                onClick={() => onNavigate(screen.id)}
                variant="light"
                style={{ borderRadius: 'var(--mantine-radius-md)' }}
                styles={rail ? { section: { marginInlineEnd: 0 }, root: { justifyContent: 'center' } } : undefined}
              />
            );
            if (!rail) return link;
            return (
              <Box key={screen.id} pos="relative">
                <Tooltip label={screen.label} position="right" withArrow openDelay={300}>
                  {link}
                </Tooltip>
                {screen.badge && (
                  // Always mounted (a badge may keep polling); it starts at the icon's top-right corner, leaving the
                  // icon readable (drawn at the row's right edge it covered half the icon).
                  <Box
                    pos="absolute"
                    top={-2}
                    left="calc(50% + 6px)"
                    w="max-content"
                    data-testid="rail-badge"
                    style={{ pointerEvents: 'none', transform: 'scale(0.8)', transformOrigin: 'left top' }}
                  >
                    <screen.badge />
                  </Box>
                )}
              </Box>
            );
          })}
        </Box>
      </AppShell.Section>
      <AppShell.Section p={rail ? 'xs' : 'md'}>
        <AppInfoFooter rail={rail} />
        <CollapseToggle rail={rail} />
      </AppShell.Section>
    </>
  );
}

/** Saves the opposite of what is shown as the admin's choice (Settings → Appearance can put it back to automatic). */
function CollapseToggle({ rail }: { rail: boolean }) {
  const save = useMutationCall('settings.set');
  const queryClient = useQueryClient();
  const label = rail ? 'Expand sidebar' : 'Collapse sidebar';
  return (
    <Tooltip label={label} position="right" withArrow openDelay={300}>
      <ActionIcon
        variant="subtle"
        color="gray"
        mt="xs"
        aria-label={label}
        visibleFrom="sm"
        onClick={() =>
          save.mutate(
            { navigation: toggledMode(rail) },
            {
              onSuccess: (saved) => queryClient.setQueryData(callKey('settings.get', {}), saved),
              onError: (error) => notifyError('The sidebar setting was not saved', error),
            },
          )
        }
      >
        {rail ? <ExpandIcon /> : <CollapseIcon />}
      </ActionIcon>
    </Tooltip>
  );
}

/**
 * Version and mode at the foot of the sidebar; one line when the keychain is out of reach (Settings → Tenants says
 * what to do), unless MENTOR_ADMIN_API_KEY supplies the key. In the rail, an icon that leads to the same help.
 */
function AppInfoFooter({ rail }: { rail: boolean }) {
  const info = useCall('app.info', {});
  if (!info.data) return null;
  const { version, shell, keychain, envKey } = info.data;
  const mode = `Version ${version} · ${shell === 'browser' ? 'browser mode' : shell}`;
  const warn = !keychain.available && !envKey;
  if (rail) {
    return warn ? (
      <Tooltip label={`Keychain unavailable: ${keychain.message}`} position="right" multiline w={260}>
        <Anchor
          href="#/settings"
          c="orange"
          aria-label="Keychain unavailable: help"
          display="block"
          ta="center"
          data-testid="keychain-warning"
        >
          <WarningIcon />
        </Anchor>
      </Tooltip>
    ) : null;
  }
  return (
    <>
      {warn && (
        <Text size="xs" c="orange" mb={4} truncate="end" title={keychain.message} data-testid="keychain-warning">
          Keychain unavailable ·{' '}
          <Anchor href="#/settings" size="xs" inherit>
            help
          </Anchor>
        </Text>
      )}
      <Text size="xs" c="dimmed">
        {mode}
      </Text>
    </>
  );
}
