import { Alert, Button, List, Paper, Stack, Text, Title } from '@mantine/core';
import { outcomeWords, summaryCounts, type ImportDraft, type ImportOutcome } from '../../../../shared/contract';
import { errorMessage } from '../../../bridge/errors';
import { useCall, useMutationCall } from '../../../queries/useCall';
import { formatCount, plural } from '../../../lib/format';
import { updateWizard } from '../wizardStore';
import { WizardFooter } from '../../../components/csv-import/WizardFooter';

/** What is not sent, in the review's words. */
const NOT_SENT: ImportOutcome[] = ['invalid', 'duplicate', 'alreadyInvited', 'alreadyMember', 'dropped'];

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
  const counts = summaryCounts(s);
  const where = useTargetName(draft);
  const notSent = NOT_SENT.filter((outcome) => counts[outcome] > 0);
  return (
    <Stack gap="md">
      <Paper withBorder p="lg" radius="md">
        <Stack gap="sm">
          <Title order={3} data-testid="confirm-summary">
            {plural(s.willEmail, 'person', 'people')} will be emailed an invitation to {where}.
          </Title>
          <Text size="sm" c="dimmed">
            From {draft.name}: {plural(s.rows, 'row')}. Invitations are {draft.active ? 'active' : 'inactive'}
            {draft.redirectTo ? `, and lead to ${draft.redirectTo}` : ''}. They are tagged with this import, so the
            Invitations list can show this batch again.
          </Text>
          {notSent.length > 0 && (
            <>
              <Text size="sm">Not sent:</Text>
              <List size="sm" data-testid="not-sent">
                {notSent.map((outcome) => (
                  <List.Item key={outcome}>
                    {formatCount(counts[outcome])} {outcomeWords(outcome, counts[outcome], false)}
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
      <WizardFooter>
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
          {s.willEmail ? `Send ${plural(s.willEmail, 'invitation')}` : 'Record the report'}
        </Button>
      </WizardFooter>
    </Stack>
  );
}
