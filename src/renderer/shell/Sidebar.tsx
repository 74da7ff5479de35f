import { ActionIcon, Anchor, AppShell, Box, NavLink, ScrollArea, Text, Tooltip } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { CollapseIcon, ExpandIcon, WarningIcon } from '../components/icons';
import { notifyError } from '../components/notify';
import { callKey, useCall, useMutationCall } from '../queries/useCall';
import { toggledMode } from './navigationMode';
import { SCREENS, type ScreenDefinition } from './screens';

/** The links' icons' size: the rail's badge is placed from it. */
const ICON_SIZE = 18;

/**
 * The rail's links are icons only, so they need less height than a labelled row: at 30 px every screen and the foot
 * fit a 650 px high window without a scrollbar (at Mantine's 34 px the last one, Settings, was cut off).
 */
const RAIL_LINK_STYLES = {
  root: { justifyContent: 'center', paddingBlock: 6 },
  section: { marginInlineEnd: 0 },
} as const;

interface SidebarProps {
  current: ScreenDefinition;
  /** Icons only, each named by a tooltip and its accessible name. */
  rail: boolean;
  onNavigate(id: string): void;
}

export function Sidebar({ current, rail, onNavigate }: SidebarProps) {
  return (
    <>
      {/* The screens scroll between the header and the foot in a window too short for them all; the scrollbar then
          takes its own room beside the links instead of lying over their right edge (or the rail's icons). */}
      <AppShell.Section grow component={ScrollArea} type="auto" scrollbarSize={6} offsetScrollbars="present" mih={0}>
        <Box component="nav" aria-label="Screens" p={rail ? 'xs' : 'sm'}>
          {SCREENS.map((screen) => {
            const active = screen.id === current.id;
            const link = (
              <NavLink
                key={screen.id}
                href={`#/${screen.id}`}
                label={rail ? undefined : screen.label}
                aria-label={rail ? screen.label : undefined}
                leftSection={<screen.icon size={ICON_SIZE} />}
                rightSection={!rail && screen.badge ? <screen.badge /> : undefined}
                active={active}
                aria-current={active ? 'page' : undefined}
                onClick={() => onNavigate(screen.id)}
                variant="light"
                style={{ borderRadius: 'var(--mantine-radius-md)' }}
                styles={rail ? RAIL_LINK_STYLES : undefined}
              />
            );
            if (!rail) return link;
            return (
              <Box key={screen.id} pos="relative">
                <Tooltip label={screen.label} position="right" withArrow openDelay={300}>
                  {link}
                </Tooltip>
                {screen.badge && (
                  // Always mounted (a badge may keep polling); it stands beside the icon's top-right corner, clear of
                  // the icon (over its corner it hid part of it), in its compact form so it fits the rail.
                  <Box
                    pos="absolute"
                    top={-4}
                    left={`calc(50% + ${ICON_SIZE / 2 + 1}px)`}
                    w="max-content"
                    data-testid="rail-badge"
                    style={{ pointerEvents: 'none', transform: 'scale(0.8)', transformOrigin: 'left top' }}
                  >
                    <screen.badge compact />
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
