import { Stack, Switch, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useBridge } from '../../bridge/BridgeContext';
import { notifyError } from '../../components/notify';
import { callKey, useCall, useMutationCall } from '../../queries/useCall';
import { requestDesktopNotifications } from '../../shell/jobNotifications';
import { useDesktopNotifications } from '../../shell/ticketNotifications';
import { SettingsSection } from '../../components/SettingsSection';

/** Both desktop notifications in one place (the ticket one is also on the Tickets screen). */
export function NotificationsSection() {
  const bridge = useBridge();
  const tickets = useDesktopNotifications();
  const settings = useCall('settings.get', {});
  const save = useMutationCall('settings.set');
  const queryClient = useQueryClient();
  const jobs = (save.isPending ? save.variables?.notifyJobEnds : undefined) ?? settings.data?.notifyJobEnds ?? true;

  function setJobs(on: boolean) {
    if (on && !bridge.capabilities.notifications) requestDesktopNotifications();
    save.mutate(
      { notifyJobEnds: on },
      {
        onSuccess: (next) => queryClient.setQueryData(callKey('settings.get', {}), next),
        onError: (error) => notifyError('Notification setting not saved', error),
      },
    );
  }

  return (
    <SettingsSection
      title="Notifications"
      description="What Mentor Admin tells you on the desktop while its window is in the background."
    >
      <Stack gap="sm">
        <Switch
          label="New support tickets"
          description="One notification for the tickets that arrive while you are away; click it to open them."
          checked={tickets.enabled}
          onChange={(event) => void tickets.setEnabled(event.currentTarget.checked)}
          disabled={settings.isPending}
        />
        <Switch
          label="When a job ends"
          description="Training, invitations and exports that finish or fail (a reply that could not be sent, too)."
          checked={jobs}
          onChange={(event) => setJobs(event.currentTarget.checked)}
          disabled={settings.isPending}
        />
        <Text size="xs" c="dimmed">
          {bridge.capabilities.notifications
            ? 'Your operating system decides how they look and whether they make a sound.'
            : 'Your browser asks once whether this page may show notifications.'}
        </Text>
      </Stack>
    </SettingsSection>
  );
}
