import { Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { QueuedReply, TicketDetail, TicketMessage } from '../../../shared/contract';
import { useBridge } from '../../bridge/BridgeContext';
import { notifyError } from '../../components/notify';
import { formatCount, formatDateTime } from '../../lib/format';

export interface PendingReply {
  key: string;
  message: string;
  state: 'sending' | 'failed';
  error?: string;
}

interface ThreadProps {
  ticket: TicketDetail;
  messages: TicketMessage[];
  total: number;
  queued: QueuedReply[];
  pending: PendingReply[];
  onDismissQueued(jobId: string): void;
  /** Sends a reply paused because the ticket changed, as written (the admin has read what changed). */
  onSendQueued(jobId: string): Promise<void>;
}

/** The thread in time order: requester on the left, staff on the right, the platform's own notes in the middle. */
export function Thread({ ticket, messages, total, queued, pending, onDismissQueued, onSendQueued }: ThreadProps) {
  const bridge = useBridge();
  const [earlier, setEarlier] = useState<TicketMessage[]>([]);
  const [loading, setLoading] = useState(false);
  const [sendingJob, setSendingJob] = useState<string | null>(null);
  const shown = earlier.length + messages.length;
  const start = total - shown;

  async function loadEarlier() {
    setLoading(true);
    try {
      const slice = await bridge.call('tickets.messages', { id: ticket.id, before: Math.max(0, start), limit: 500 });
      setEarlier((list) => [...slice.messages, ...list]);
    } catch (error) {
      notifyError('Could not read earlier messages', error);
    } finally {
      setLoading(false);
    }
  }

  return (
    <Stack gap={8} role="log" aria-label="Thread" data-testid="ticket-thread">
      {start > 0 && (
        <Button variant="subtle" size="xs" onClick={() => void loadEarlier()} loading={loading}>
          Show {formatCount(Math.min(500, start))} earlier of {formatCount(start)} older messages
        </Button>
      )}
      {[...earlier, ...messages].map((m) => (
        <Message key={m.id} message={m} ticket={ticket} />
      ))}
      {queued.map((q) => (
        <Bubble key={q.jobId} side="right" tone={q.state === 'failed' ? 'red' : 'yellow'}>
          <Group justify="space-between" gap="xs">
            <Text size="xs" c="dimmed">
              You · {q.state === 'failed' ? 'not sent' : q.state === 'paused' ? 'waiting for your decision' : 'queued'}
            </Text>
            <Group gap={4}>
              {q.changed && (
                <Button
                  size="compact-xs"
                  color="orange"
                  loading={sendingJob === q.jobId}
                  onClick={() => {
                    setSendingJob(q.jobId);
                    void onSendQueued(q.jobId).finally(() => setSendingJob(null));
                  }}
                >
                  Send anyway
                </Button>
              )}
              {(q.state === 'failed' || q.state === 'paused') && (
                <Button
                  size="compact-xs"
                  variant="subtle"
                  onClick={() => onDismissQueued(q.jobId)}
                  disabled={sendingJob === q.jobId}
                >
                  Dismiss
                </Button>
              )}
            </Group>
          </Group>
          <Text size="sm" dir="auto" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {q.message}
          </Text>
          {q.reason && (
            <Text size="xs" c={q.state === 'failed' ? 'red' : 'dimmed'}>
              {q.reason}
            </Text>
          )}
        </Bubble>
      ))}
      {pending.map((p) => (
        <Bubble key={p.key} side="right" tone={p.state === 'failed' ? 'red' : 'gray'}>
          <Text size="xs" c="dimmed">
            You · {p.state === 'sending' ? 'sending…' : 'not sent'}
          </Text>
          <Text size="sm" dir="auto" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {p.message}
          </Text>
          {p.error && (
            <Text size="xs" c="red">
              {p.error}
            </Text>
          )}
        </Bubble>
      ))}
    </Stack>
  );
}

function Message({ message: m, ticket }: { message: TicketMessage; ticket: TicketDetail }) {
  if (m.senderKind === 'system') {
    return (
      <Text size="xs" c="dimmed" ta="center" fs="italic" dir="auto" data-sender="system">
        {m.message} · {formatDateTime(m.timestamp)}
      </Text>
    );
  }
  const requester = m.senderKind === 'requester';
  const who = requester ? ticket.requester.name || ticket.requester.username : m.mine ? 'You' : `Staff #${m.sender}`;
  return (
    <Bubble side={requester ? 'left' : 'right'} tone={requester ? 'default' : 'blue'} sender={m.senderKind}>
      <Group gap={6}>
        <Text size="xs" fw={600}>
          {who}
        </Text>
        <Badge size="xs" variant="light" color={requester ? 'gray' : 'blue'}>
          {requester ? 'Requester' : 'Staff'}
        </Badge>
        <Text size="xs" c="dimmed">
          {formatDateTime(m.timestamp)}
        </Text>
      </Group>
      <Text size="sm" dir="auto" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {m.message}
      </Text>
    </Bubble>
  );
}

function Bubble({
  side,
  tone,
  sender,
  children,
}: {
  side: 'left' | 'right';
  tone: 'default' | 'blue' | 'yellow' | 'red' | 'gray';
  sender?: string;
  children: React.ReactNode;
}) {
  const background = {
    default: 'var(--mantine-color-default-hover)',
    blue: 'var(--mantine-color-blue-light)',
    yellow: 'var(--mantine-color-yellow-light)',
    red: 'var(--mantine-color-red-light)',
    gray: 'var(--mantine-color-gray-light)',
  }[tone];
  return (
    <Paper
      p={8}
      radius="md"
      data-sender={sender}
      style={{ alignSelf: side === 'left' ? 'flex-start' : 'flex-end', maxWidth: '88%', background }}
    >
      {children}
    </Paper>
  );
}
