import { Select, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { describeMinutes } from '../../../shared/contract';
import { notifyError } from '../../components/notify';
import { callKey, useCall, useMutationCall } from '../../queries/useCall';
import { SettingsSection } from '../../components/SettingsSection';

/** The waiting limits offered, in minutes: from a short outage to a long weekend. */
const LIMITS = [15, 30, 60, 120, 240, 480, 1440, 4320, 10080];

/** How long a job waits for an unreachable tenant before it gives up and pauses. */
export function JobsSection() {
  const settings = useCall('settings.get', {});
  const save = useMutationCall('settings.set');
  const queryClient = useQueryClient();
  const current =
    (save.isPending ? save.variables?.jobWaitLimitMinutes : undefined) ?? settings.data?.jobWaitLimitMinutes;
  const options = [...new Set([...LIMITS, ...(current ? [current] : [])])]
    .sort((a, b) => a - b)
    .map((minutes) => ({ value: String(minutes), label: describeMinutes(minutes) }));

  function choose(value: string | null) {
    if (!value) return;
    save.mutate(
      { jobWaitLimitMinutes: Number(value) },
      {
        onSuccess: (next) => queryClient.setQueryData(callKey('settings.get', {}), next),
        onError: (error) => notifyError('Waiting limit not saved', error),
      },
    );
  }

  return (
    <SettingsSection title="Jobs" description="What jobs do when the tenant cannot be reached.">
      <Stack gap={6}>
        <Select
          label="Waiting limit"
          description="How long a job waits for a tenant that does not answer"
          data={options}
          value={current ? String(current) : null}
          onChange={choose}
          allowDeselect={false}
          disabled={settings.isPending}
          // The field is narrow, its description is not: a sentence broken after three words looked unfinished.
          styles={{ wrapper: { width: 320, maxWidth: '100%' } }}
          data-testid="wait-limit"
        />
        <Text size="xs" c="dimmed">
          Meanwhile the job tries again by itself, less and less often (at most a minute apart). After this long it
          pauses, saying why, and you resume it when the tenant is back. Jobs waiting now follow a change at once; a job
          given its own limit from the command line (--wait-limit) keeps it.
        </Text>
      </Stack>
    </SettingsSection>
  );
}
