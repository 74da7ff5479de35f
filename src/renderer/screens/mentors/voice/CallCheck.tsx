/**
 * Call credentials on a mentor's Voice tab: asks the platform for the credentials a call with the mentor is joined
 * with, which checks that calls work. The participant token is a secret and never reaches this page (the engine drops
 * it): the card says that one was issued, and until when.
 */
import { Alert, Button, Group, Paper, Stack, Switch, Table, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { BridgeCallError } from '../../../../shared/contract';
import { errorMessage } from '../../../bridge/errors';
import { CheckCircleIcon, WarningIcon } from '../../../components/icons';
import { formatDateTime } from '../../../lib/format';
import { useMutationCall } from '../../../queries/useCall';
import type { MentorTarget } from '../../../train/TrainFlowContext';

export function CallCheck({ mentor }: { mentor: MentorTarget }) {
  const check = useMutationCall('calls.credentials');
  const [session, setSession] = useState('');
  const [video, setVideo] = useState(false);
  const issues = check.error instanceof BridgeCallError ? (check.error.issues ?? []) : [];
  const sessionError = issues.find((issue) => issue.path === 'sessionId')?.message;
  const result = check.data;
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-label="Call credentials" data-testid="call-check">
      <Stack gap="sm">
        <div>
          <Title order={2} size="h4">
            Call credentials
          </Title>
          <Text size="sm" c="dimmed">
            Ask the platform for the credentials a call with {mentor.name} is joined with, to check that calls work. The
            participant token it issues is a secret: it is never shown or kept.
          </Text>
        </div>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            check.mutate({
              profileId: mentor.profileId,
              mentor: mentor.uniqueId,
              ...(session.trim() && { sessionId: session.trim() }),
              ...(video && { enableVideo: true }),
            });
          }}
        >
          <Group align="flex-end" gap="sm" wrap="wrap">
            <TextInput
              label="Session"
              description="A chat session of this mentor; empty starts a new one."
              placeholder="New session"
              value={session}
              onChange={(event) => setSession(event.currentTarget.value)}
              error={sessionError}
              w={320}
              maw="100%"
            />
            <Switch label="Video" checked={video} onChange={(event) => setVideo(event.currentTarget.checked)} mb={8} />
            <Button type="submit" variant="light" loading={check.isPending}>
              Get call credentials
            </Button>
          </Group>
        </form>
        {check.isError && !sessionError && (
          <Alert
            color="red"
            variant="light"
            icon={<WarningIcon size={16} />}
            title="Calls with this mentor do not work"
          >
            {errorMessage(check.error)}
          </Alert>
        )}
        {result && (
          <Alert color="green" variant="light" icon={<CheckCircleIcon size={16} />} title="Calls work">
            <Table withRowBorders={false} verticalSpacing={2} aria-label="Call credentials issued">
              <Table.Tbody>
                {(
                  [
                    ['Server', result.wsUrl],
                    ['Room', result.roomName],
                    ['Participant', result.participantName],
                    ['Session', result.sessionId],
                    [
                      'Token',
                      result.tokenIssued
                        ? `Issued, not shown${result.tokenExpiresAt ? ` (valid until ${formatDateTime(result.tokenExpiresAt)})` : ''}`
                        : 'None issued',
                    ],
                  ] as const
                ).map(([label, value]) => (
                  <Table.Tr key={label}>
                    <Table.Th w={110} fw={500}>
                      {label}
                    </Table.Th>
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>{value}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}
