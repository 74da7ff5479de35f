import { Alert, Badge, Button, Code, Group, Loader, Modal, Paper, ScrollArea, Stack, Text } from '@mantine/core';
import { useMemo, useState } from 'react';
import { errorMessage } from '../../bridge/errors';
import { useBridge } from '../../bridge/BridgeContext';
import { notifyError } from '../notify';
import { formatDateTime } from '../../lib/format';
import { useCall, useMutationCall } from '../../queries/useCall';
import { useMentorNames } from '../../resources/mentor-refs';
import { FollowJob } from '../jobs/FollowJob';
import { TraceModal } from '../traces/TraceView';

export interface OpenSession {
  learner: string;
  session: string;
}

/**
 * One of a learner's sessions for an admin: its messages as the platform keeps them, whether the learner pinned it
 * (pin or unpin it), its export as a CSV file (a job: the tenant prepares it, the app saves it) and its trace.
 * Opened from a person's chats and from a review item; the tenant travels with every call.
 */
export function SessionModal({
  profileId,
  open,
  onClose,
}: {
  profileId: string;
  open: OpenSession | null;
  onClose(): void;
}) {
  return (
    <Modal
      opened={!!open}
      onClose={onClose}
      title={open ? `Session of ${open.learner}` : 'Session'}
      size="min(900px, 95vw)"
    >
      {open && <SessionBody profileId={profileId} open={open} />}
    </Modal>
  );
}

function SessionBody({ profileId, open }: { profileId: string; open: OpenSession }) {
  const bridge = useBridge();
  const view = useCall('sessions.get', { profileId, ...open });
  const pin = useMutationCall('sessions.pin');
  const exporting = useMutationCall('sessions.export');
  const [traceId, setTraceId] = useState<string | null>(null);
  const [tracing, setTracing] = useState(false);
  const [noTrace, setNoTrace] = useState(false);
  const mentorId = view.data?.mentorUniqueId ?? null;
  const mentorIds = useMemo(() => (mentorId ? [mentorId] : null), [mentorId]);
  // The mentor's name from the mentors' cache; its id only when no mentor of the tenant has it.
  const mentorNames = useMentorNames(profileId, mentorIds);

  async function openTrace() {
    setTracing(true);
    try {
      const { traces } = await bridge.call('review.traceOf', { profileId, session: open.session });
      setNoTrace(!traces.length);
      if (traces.length) setTraceId(traces[0]!.id);
    } catch (error) {
      notifyError('Trace not read', error);
    } finally {
      setTracing(false);
    }
  }

  if (view.isPending) return <Loader size="sm" aria-label="Loading the session" />;
  if (view.error)
    return (
      <Alert color="red" data-testid="session-error">
        {errorMessage(view.error)}
      </Alert>
    );
  const data = view.data;
  return (
    <Stack gap="sm" data-testid="session-view" data-session={open.session}>
      <Group gap="xs" wrap="wrap">
        <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
          {data.title || 'Untitled session'}
        </Text>
        <Badge variant="light" color="gray">
          {data.messages.length} {data.messages.length === 1 ? 'message' : 'messages'}
        </Badge>
        {data.pinned && (
          <Badge variant="light" color="blue" data-testid="session-pinned">
            Pinned by the learner
          </Badge>
        )}
      </Group>
      <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
        Session <Code>{open.session}</Code>
        {data.mentorUniqueId && (
          <>
            {' · '}
            <span data-testid="session-mentor" title={data.mentorUniqueId}>
              mentor {mentorNames.get(data.mentorUniqueId) ?? data.mentorUniqueId}
            </span>
          </>
        )}
      </Text>
      <Group gap="xs" wrap="wrap">
        <Button
          size="xs"
          variant="default"
          loading={pin.isPending}
          onClick={() => pin.mutate({ profileId, ...open, pinned: !data.pinned })}
        >
          {data.pinned ? 'Unpin' : 'Pin'}
        </Button>
        <Button
          size="xs"
          variant="default"
          loading={exporting.isPending}
          disabled={!!exporting.data}
          onClick={() => exporting.mutate({ profileId, ...open })}
        >
          Export as CSV
        </Button>
        <Button size="xs" variant="default" loading={tracing} onClick={() => void openTrace()}>
          Trace
        </Button>
      </Group>
      {pin.error && <Alert color="red">{errorMessage(pin.error)}</Alert>}
      {exporting.error && <Alert color="red">{errorMessage(exporting.error)}</Alert>}
      {noTrace && (
        <Text size="sm" c="dimmed" role="status">
          The tenant keeps no trace for this session.
        </Text>
      )}
      {exporting.data && (
        <Paper withBorder p="xs" radius="md" data-testid="session-export">
          <FollowJob jobId={exporting.data.jobId} />
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            Saved on the computer running Mentor Admin: <Code>{exporting.data.path}</Code>
          </Text>
        </Paper>
      )}
      <ScrollArea.Autosize mah="min(55vh, 520px)" type="auto">
        <Stack gap={6} pr="xs" data-testid="session-messages">
          {data.messages.length === 0 && (
            <Text size="sm" c="dimmed">
              This session holds no message.
            </Text>
          )}
          {data.messages.map((m, i) => (
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
        </Stack>
      </ScrollArea.Autosize>
      <TraceModal traceId={traceId} onClose={() => setTraceId(null)} />
    </Stack>
  );
}
