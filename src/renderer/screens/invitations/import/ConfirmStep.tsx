import { Alert, Button, Group, List, Paper, Stack, Text, Title } from '@mantine/core';
import type { ImportDraft } from '../../../../shared/contract';
import { errorMessage } from '../../../bridge/errors';
import { useCall, useMutationCall } from '../../../queries/useCall';
import { updateWizard } from '../wizardStore';

function useTargetName(draft: ImportDraft): string {
  const target = draft.target;
  const courses = useCall(
    'invitations.courses',
    { profileId: draft.profileId },
    { enabled: target?.kind === 'course' },
  );
  const programs = useCall(
    'invitations.programs',
    { profileId: draft.profileId },
    { enabled: target?.kind === 'program' },
  );
  if (!target || target.kind === 'platform') return 'the platform';
  const items = target.kind === 'course' ? courses.data?.courses : programs.data?.programs;
  return `the ${target.kind} ${items?.find((item) => item.id === target.id)?.name ?? target.id}`;
}

/** The last look before anything is sent: how many people will be emailed, and what will not be sent. */
export function ConfirmStep({ draft }: { draft: ImportDraft }) {
  const start = useMutationCall('invitations.importStart');
  const s = draft.summary;
  const where = useTargetName(draft);
  const notSent = [
    [s.invalid + s.duplicate, 'rows with problems (invalid or duplicates)'],
    [s.alreadyInvited, 'already invited'],
    [s.alreadyMember, 'already members'],
    [s.dropped, 'left out by you'],
  ].filter(([n]) => Number(n) > 0);
  return (
    <Stack gap="md">
      <Paper withBorder p="lg" radius="md">
        <Stack gap="sm">
          <Title order={3} data-testid="confirm-summary">
            {s.willEmail.toLocaleString()} {s.willEmail === 1 ? 'person' : 'people'} will be emailed an invitation to{' '}
            {where}.
          </Title>
          <Text size="sm" c="dimmed">
            From {draft.name}: {s.rows.toLocaleString()} rows. Invitations are {draft.active ? 'active' : 'inactive'}
            {draft.redirectTo ? `, and lead to ${draft.redirectTo}` : ''}.
          </Text>
          {notSent.length > 0 && (
            <>
              <Text size="sm">Not sent:</Text>
              <List size="sm">
                {notSent.map(([n, what]) => (
                  <List.Item key={String(what)}>
                    {Number(n).toLocaleString()} {what}
                  </List.Item>
                ))}
              </List>
            </>
          )}
          <Text size="sm" c="dimmed">
            The invitations are sent by a job that survives quitting the app and never invites anyone twice.
          </Text>
        </Stack>
      </Paper>
      {start.isError && <Alert color="red">{errorMessage(start.error)}</Alert>}
      <Group justify="space-between">
        <Button variant="default" onClick={() => updateWizard({ step: 'review' })}>
          Back
        </Button>
        <Button
          color="teal"
          loading={start.isPending}
          disabled={draft.state !== 'ready'}
          onClick={() =>
            start.mutate({ id: draft.id }, { onSuccess: ({ jobId }) => updateWizard({ step: 'send', jobId }) })
          }
        >
          {s.willEmail
            ? `Send ${s.willEmail.toLocaleString()} invitation${s.willEmail === 1 ? '' : 's'}`
            : 'Record the report'}
        </Button>
      </Group>
    </Stack>
  );
}
