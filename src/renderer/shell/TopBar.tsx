import { Burger, Group, ThemeIcon, Title } from '@mantine/core';
import { AppMark } from '../components/icons';
import { JobIndicator } from './JobIndicator';
import { TenantSwitcher } from './TenantSwitcher';

interface TopBarProps {
  navigationOpened: boolean;
  onToggleNavigation(): void;
}

export function TopBar({ navigationOpened, onToggleNavigation }: TopBarProps) {
  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap">
      <Group gap="sm" wrap="nowrap">
        <Burger
          opened={navigationOpened}
          onClick={onToggleNavigation}
          hiddenFrom="sm"
          size="sm"
          aria-label={navigationOpened ? 'Close navigation' : 'Open navigation'}
        />
        <ThemeIcon size={32} radius="md" variant="filled" aria-hidden="true">
          <AppMark size={20} />
        </ThemeIcon>
        <Title order={1} size="h4" fw={700}>
          Mentor Admin
        </Title>
      </Group>
      <Group gap="sm" wrap="nowrap">
        <JobIndicator />
        <TenantSwitcher />
      </Group>
    </Group>
  );
}
