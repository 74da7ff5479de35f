import { Alert, Button, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { calls, type ImportDraft, type InviteTarget } from '../../../../shared/contract';
import { contractResolver, showSaveError, topLevelField } from '../../../lib/forms';
import { useMutationCall } from '../../../queries/useCall';
import { isComplete, TargetPicker } from '../TargetPicker';
import { updateWizard } from '../wizardStore';
import { WizardFooter } from '../../../components/csv-import/WizardFooter';
import { formatCount } from '../../../lib/format';

interface TargetValues {
  /** A course or program still to be chosen has an empty id (Next stays off until it is). */
  target: InviteTarget | { kind: 'course' | 'program'; id: '' };
  redirectTo: string;
  active: boolean;
}

// The picker shows no message of its own: anything said about the target goes to the alert.
const fieldOf = topLevelField(['redirectTo', 'active']);

/** Where to invite, and the options every invitation of the file carries. */
export function TargetStep({ draft }: { draft: ImportDraft }) {
  /** What Next sends: a blank redirect is none. */
  const toInput = ({ target, redirectTo, active }: TargetValues) => ({
    id: draft.id,
    target,
    redirectTo: redirectTo.trim() || null,
    active,
  });
  const form = useForm<TargetValues>({
    mode: 'controlled',
    initialValues: {
      target: draft.target ?? { kind: 'platform' },
      redirectTo: draft.redirectTo ?? '',
      active: draft.active,
    },
    validate: contractResolver(calls['invitations.importTarget'].input, toInput, fieldOf),
  });
  const [formError, setFormError] = useState<string | null>(null);
  const save = useMutationCall('invitations.importTarget');
  const { target } = form.values;

  function next() {
    setFormError(null);
    if (!isComplete(target) || form.validate().hasErrors) return;
    save.mutate(
      { ...toInput(form.values), target },
      {
        onSuccess: () => updateWizard({ step: 'review' }),
        onError: (error) => setFormError(showSaveError(form, error, fieldOf)),
      },
    );
  }

  return (
    <Stack gap="md">
      <TargetPicker
        profileId={draft.profileId}
        value={target}
        onChange={(value) => form.setFieldValue('target', value)}
      />
      <TextInput
        label="Redirect to"
        description="Where the invitation link leads after sign-up (optional)"
        placeholder="https://…"
        maw={520}
        {...form.getInputProps('redirectTo')}
      />
      <Switch
        label="Active invitations"
        description="Inactive invitations are created but cannot be used until activated"
        {...form.getInputProps('active', { type: 'checkbox' })}
      />
      {draft.state === 'parsing' && (
        <Text size="sm" c="dimmed">
          Still reading the file ({formatCount(draft.progress.rows)} rows so far)…
        </Text>
      )}
      {formError && <Alert color="red">{formError}</Alert>}
      <WizardFooter>
        <Button variant="default" onClick={() => updateWizard({ step: 'columns' })}>
          Back
        </Button>
        <Button disabled={!isComplete(target)} loading={save.isPending} onClick={next}>
          Next
        </Button>
      </WizardFooter>
    </Stack>
  );
}
