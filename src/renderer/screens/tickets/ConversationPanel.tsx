import { Alert, Loader, Paper, ScrollArea, Stack, Text } from '@mantine/core';
import { errorMessage } from '../../bridge/errors';
import { useCall } from '../../queries/useCall';
import { formatDateTime } from '../../lib/format';

/** The learner's chat session the ticket came from, read from the platform's analytics when it keeps it. */
export function ConversationPanel({ id }: { id: number }) {
  const chat = useCall('tickets.conversation', { id });
  return (
    <Stack gap={6} aria-label="Learner chat session" role="region">
      <Text size="sm" fw={600}>
        Learner&apos;s chat session
      </Text>
      {chat.isPending && <Loader size="sm" aria-label="Loading the chat session" />}
      {chat.error && (
        <Alert color="gray" variant="light">
          {errorMessage(chat.error)}
        </Alert>
      )}
      {chat.data && !chat.data.available && (
        <Text size="sm" c="dimmed">
          {chat.data.reason}
        </Text>
      )}
      {chat.data?.available && (
        <>
          <Text size="xs" c="dimmed">
            Started {formatDateTime(chat.data.startedAt)}
          </Text>
          <ScrollArea.Autosize mah={520} type="auto">
            <Stack gap={6} pr="xs">
              {chat.data.messages.map((m, i) => (
                <Paper
                  key={i}
                  p={8}
                  radius="md"
                  withBorder
                  bg={m.role === 'learner' ? 'var(--mantine-color-default-hover)' : undefined}
                  style={{ alignSelf: m.role === 'learner' ? 'flex-start' : 'flex-end', maxWidth: '92%' }}
                >
                  <Text size="xs" c="dimmed">
                    {m.role === 'learner' ? 'Learner' : 'Mentor'} · {formatDateTime(m.timestamp)}
                  </Text>
                  <Text size="sm" dir="auto" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                    {m.content}
                  </Text>
                </Paper>
              ))}
              {chat.data.reason && (
                <Text size="sm" c="dimmed">
                  {chat.data.reason}
                </Text>
              )}
            </Stack>
          </ScrollArea.Autosize>
        </>
      )}
    </Stack>
  );
}
