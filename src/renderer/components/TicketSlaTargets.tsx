import { Alert, Button, Group, NumberInput, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { TicketSlaTargets } from '../../shared/contract';
import { saveErrors } from '../bridge/errors';
import { useCall, useMutationCall } from '../queries/useCall';
import { SettingsSection } from './SettingsSection';

const MAX_HOURS = 24 * 365;
const hours = (value: number | string) => (typeof value === 'number' && value > 0 ? value : null);

/** "24 h", or "none" when no target runs that clock. */
export const targetText = (value: number | null) => (value === null ? 'none' : `${value} h`);

/**
 * The tenant's SLA targets (local only: the platform has no SLA). Off until set: a clock that fires on every old
 * ticket tells the admin nothing. Views that set no target of their own follow these.
 */
export function SlaDefaultsForm({ onSaved }: { onSaved?(saved: TicketSlaTargets): void }) {
  const current = useCall('tickets.slaDefaults', {});
  if (!current.data) return <Text size="sm">Loading…</Text>;
  return <Form key={JSON.stringify(current.data)} saved={current.data} {...(onSaved ? { onSaved } : {})} />;
}

function Form({ saved, onSaved }: { saved: TicketSlaTargets; onSaved?(saved: TicketSlaTargets): void }) {
  const save = useMutationCall('tickets.setSlaDefaults');
  const [firstReply, setFirstReply] = useState<number | string>(saved.firstReplyHours ?? '');
  const [resolution, setResolution] = useState<number | string>(saved.resolutionHours ?? '');
  const refused = save.error
    ? saveErrors(save.error, (issues) => {
        const fields: Record<string, string> = {};
        const other: string[] = [];
        for (const issue of issues) {
          if (issue.path) fields[issue.path] = issue.message;
          else other.push(issue.message);
        }
        return { fields, other };
      })
    : null;
  const fieldError = (name: string) => (refused?.fields as Record<string, string> | undefined)?.[name];
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate(
          { firstReplyHours: hours(firstReply), resolutionHours: hours(resolution) },
          { onSuccess: (next) => onSaved?.(next) },
        );
      }}
    >
      <Stack gap="sm">
        {refused?.form && (
          <Alert color="red" role="alert" title="Not saved">
            {refused.form}
          </Alert>
        )}
        <Group grow align="flex-start">
          <NumberInput
            label="First reply within (hours)"
            description="From filing to the first staff reply"
            min={0}
            max={MAX_HOURS}
            value={firstReply}
            onChange={setFirstReply}
            placeholder="No target"
            error={fieldError('firstReplyHours')}
          />
          <NumberInput
            label="Resolution within (hours)"
            description="From filing to the close"
            min={0}
            max={MAX_HOURS}
            value={resolution}
            onChange={setResolution}
            placeholder="No target"
            error={fieldError('resolutionHours')}
          />
        </Group>
        <Group justify="space-between">
          <Text size="xs" c="dimmed" role="status">
            {save.isSuccess
              ? 'Saved: every ticket shows the time left against these targets.'
              : 'Empty: no clock runs. Kept on this computer, for this tenant.'}
          </Text>
          <Button type="submit" size="xs" loading={save.isPending}>
            Save SLA targets
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The same targets on the Settings screen. */
export function TicketSlaSection() {
  return (
    <SettingsSection
      title="Support ticket SLA"
      description="How long the active tenant's support team has to reply and to resolve. Views may set their own."
    >
      <SlaDefaultsForm />
    </SettingsSection>
  );
}
