import { Alert, Button, Group, NumberInput, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { calls, type TicketSlaTargets } from '../../shared/contract';
import { contractResolver, showSaveError, topLevelField } from '../lib/forms';
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

/** The form's two boxes: a number, or '' while empty. */
interface SlaValues {
  firstReplyHours: number | string;
  resolutionHours: number | string;
}

/** What Save sends: an empty box (or 0) turns that clock off. */
const toTargets = (values: SlaValues): TicketSlaTargets => ({
  firstReplyHours: hours(values.firstReplyHours),
  resolutionHours: hours(values.resolutionHours),
});

const fieldOf = topLevelField(['firstReplyHours', 'resolutionHours']);

function Form({ saved, onSaved }: { saved: TicketSlaTargets; onSaved?(saved: TicketSlaTargets): void }) {
  const save = useMutationCall('tickets.setSlaDefaults');
  const form = useForm<SlaValues>({
    mode: 'controlled',
    initialValues: { firstReplyHours: saved.firstReplyHours ?? '', resolutionHours: saved.resolutionHours ?? '' },
    validate: contractResolver(calls['tickets.setSlaDefaults'].input, toTargets, fieldOf),
  });
  const [formError, setFormError] = useState<string | null>(null);
  return (
    <form
      onSubmit={form.onSubmit(
        (values) => {
          setFormError(null);
          save.mutate(toTargets(values), {
            onSuccess: (next) => onSaved?.(next),
            onError: (error) => setFormError(showSaveError(form, error, fieldOf)),
          });
        },
        () => setFormError(null),
      )}
    >
      <Stack gap="sm">
        {formError && (
          <Alert color="red" role="alert" title="Not saved">
            {formError}
          </Alert>
        )}
        <Group grow align="flex-start">
          <NumberInput
            label="First reply within (hours)"
            description="From filing to the first staff reply"
            min={0}
            max={MAX_HOURS}
            placeholder="No target"
            {...form.getInputProps('firstReplyHours')}
          />
          <NumberInput
            label="Resolution within (hours)"
            description="From filing to the close"
            min={0}
            max={MAX_HOURS}
            placeholder="No target"
            {...form.getInputProps('resolutionHours')}
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
