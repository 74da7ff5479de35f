import { Alert, Button, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import type { ImportDraft, InviteTarget } from '../../../../shared/contract';
import { errorMessage } from '../../../bridge/errors';
import { useMutationCall } from '../../../queries/useCall';
import { isComplete, TargetPicker } from '../TargetPicker';
import { updateWizard } from '../wizardStore';
import { WizardFooter } from '../../../components/csv-import/WizardFooter';
import { formatCount } from '../../../lib/format';

/** Where to invite, and the options every invitation of the file carries. */
export function TargetStep({ draft }: { draft: ImportDraft }) {
  const [target, setTarget] = useState<InviteTarget | { kind: 'course' | 'program'; id: '' }>(
    draft.target ?? { kind: 'platform' },
  );
  const [redirectTo, setRedirectTo] = useState(draft.redirectTo ?? '');
  const [active, setActive] = useState(draft.active);
  const save = useMutationCall('invitations.importTarget');
  return (
    <Stack gap="md">
      <TargetPicker profileId={draft.profileId} value={target} onChange={setTarget} />
      <TextInput
        label="Redirect to"
        description="Where the invitation link leads after sign-up (optional)"
        placeholder="https://…"
        maw={520}
        value={redirectTo}
        onChange={(event) => setRedirectTo(event.currentTarget.value)}
      />
      <Switch
        label="Active invitations"
        description="Inactive invitations are created but cannot be used until activated"
        checked={active}
        onChange={(event) => setActive(event.currentTarget.checked)}
      />
      {draft.state === 'parsing' && (
        <Text size="sm" c="dimmed">
          Still reading the file ({formatCount(draft.progress.rows)} rows so far)…
        </Text>
      )}
      {save.isError && <Alert color="red">{errorMessage(save.error)}</Alert>}
      <WizardFooter>
        <Button variant="default" onClick={() => updateWizard({ step: 'columns' })}>
          Back
        </Button>
        <Button
          disabled={!isComplete(target)}
          loading={save.isPending}
          onClick={() =>
            isComplete(target) &&
            save.mutate(
              { id: draft.id, target, redirectTo: redirectTo.trim() || null, active },
              { onSuccess: () => updateWizard({ step: 'review' }) },
            )
          }
        >
          Next
        </Button>
      </WizardFooter>
    </Stack>
  );
}
