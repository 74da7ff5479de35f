import { Alert, Badge, Button, Group, Kbd, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useEffect, useRef } from 'react';
import type { ReviewItem } from '../../../shared/contract';
import { errorMessage } from '../../bridge/errors';
import { useCall } from '../../queries/useCall';
import { formatDateTime } from '../../lib/format';

export const sourceColor = (source: string) =>
  source === 'Safety System' ? 'red' : source === 'Negative feedback' ? 'grape' : 'orange';
/** The source in a word, for badges and buttons. */
export const sourceLabel = (source: string) =>
  source === 'Safety System' ? 'Safety' : source === 'Negative feedback' ? 'Feedback' : 'Moderation';
/** A rating is no log: no call deletes it (the queue says so on d). */
export const deletable = (item: ReviewItem) => item.source !== 'Negative feedback';

/**
 * One item: what was flagged and why, the conversation it came from scrolled to the flagged message, the mentor's
 * safety settings at the time, and what to do about it.
 */
export function ReviewPane({
  item,
  focusConversation,
  onMark,
  onDelete,
  onAdjust,
  onTrace,
  onSession,
  onTicketNote,
}: {
  item: ReviewItem;
  /** Bumped by `c`: the conversation takes focus at the flagged message. */
  focusConversation: number;
  onMark(): void;
  onDelete(): void;
  onAdjust(uniqueId: string | null): void;
  onTrace(session: string): void;
  /** Opens the conversation as a session (messages, pin, export). */
  onSession(session: string): void;
  onTicketNote(): void;
}) {
  const detail = useCall('review.get', { id: item.id });
  const flagged = useRef<HTMLDivElement>(null);
  const body = useRef<HTMLDivElement>(null);
  const conversation = detail.data?.conversation;

  // The flagged message to the middle of the pane's one scroll area; scrollIntoView would scroll the page and the
  // list's boxes too, taking the item's title and actions out of view.
  const centreFlagged = () => {
    const box = body.current;
    const message = flagged.current;
    if (!box || !message) return;
    const top = message.getBoundingClientRect().top - box.getBoundingClientRect().top + box.scrollTop;
    box.scrollTop = top - (box.clientHeight - message.offsetHeight) / 2;
  };
  useEffect(centreFlagged, [conversation]);
  useEffect(() => {
    if (!focusConversation) return;
    centreFlagged();
    flagged.current?.focus({ preventScroll: true });
  }, [focusConversation]);

  return (
    <Stack
      gap="sm"
      h="100%"
      mih={0}
      data-testid="review-pane"
      data-item={item.id}
      data-ready={detail.data ? 'true' : 'false'}
    >
      {/* What the item is and what to do about it stay in view; the rest scrolls below them. */}
      <Stack gap="xs" data-testid="review-pane-header">
        <Group gap="xs" wrap="wrap">
          <Badge color={sourceColor(item.source)} variant="light">
            {item.source}
          </Badge>
          <Text size="sm" c="dimmed">
            {formatDateTime(item.createdAt)} · {item.learner} · {item.mentorName ?? `mentor ${item.mentorId}`}
          </Text>
          {item.reviewedBy && (
            <Badge color="green" variant="light">
              Reviewed by {item.reviewedBy} {formatDateTime(item.reviewedAt)}
            </Badge>
          )}
        </Group>
        <Title order={4} style={{ overflowWrap: 'anywhere' }}>
          {item.reason}
        </Title>
        <Group gap="xs">
          <Button size="xs" onClick={onMark} rightSection={<Kbd size="xs">e</Kbd>}>
            {item.reviewedBy ? 'Open again' : 'Mark reviewed'}
          </Button>
          {deletable(item) && (
            <Button size="xs" variant="default" color="red" onClick={onDelete} rightSection={<Kbd size="xs">d</Kbd>}>
              Delete log
            </Button>
          )}
          <Button size="xs" variant="default" onClick={() => onAdjust(conversation?.mentorUniqueId ?? null)}>
            Adjust the mentor
          </Button>
          <Button size="xs" variant="default" onClick={onTicketNote}>
            Turn into a ticket note
          </Button>
          {conversation?.session && (
            <Button
              size="xs"
              variant="default"
              onClick={() => onTrace(conversation.session!)}
              rightSection={<Kbd size="xs">t</Kbd>}
            >
              Trace
            </Button>
          )}
          {conversation?.session && (
            <Button size="xs" variant="default" onClick={() => onSession(conversation.session!)}>
              Session
            </Button>
          )}
        </Group>
      </Stack>
      <div ref={body} data-testid="review-pane-body" style={{ flex: 1, minHeight: 0, overflow: 'auto' }}>
        <Stack gap="sm" pr="xs" pb="xs">
          {detail.data?.settings && (
            <Paper withBorder p="xs" radius="md">
              <Text size="xs" c="dimmed">
                Mentor settings at the time — {detail.data.settings.note}
              </Text>
              <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                <b>Safety prompt:</b> {detail.data.settings.safetyPrompt || '(empty)'}
              </Text>
              {detail.data.settings.moderationPrompt !== null && (
                <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                  <b>Moderation prompt:</b> {detail.data.settings.moderationPrompt || '(empty)'}
                </Text>
              )}
            </Paper>
          )}
          {detail.data && !detail.data.settings && (
            <Text size="xs" c="dimmed">
              No snapshot of this mentor&apos;s settings was kept on this machine: the mentor editor keeps one at each
              save.
            </Text>
          )}
          <Text size="sm" fw={600}>
            Conversation
          </Text>
          {detail.isPending && <Loader size="sm" aria-label="Loading the conversation" />}
          {detail.error && <Alert color="red">{errorMessage(detail.error)}</Alert>}
          {conversation?.available && conversation.reason && (
            <Text size="xs" c="dimmed">
              {conversation.reason}
            </Text>
          )}
          {conversation && !conversation.available && (
            <Alert color="gray" variant="light" data-testid="conversation-missing">
              {conversation.reason}
            </Alert>
          )}
          {conversation?.available && (
            <Stack gap={6} data-testid="review-conversation">
              {conversation.messages.map((m, i) => {
                const isFlagged = i === conversation.flaggedIndex;
                return (
                  <Paper
                    key={i}
                    ref={isFlagged ? flagged : undefined}
                    tabIndex={isFlagged ? -1 : undefined}
                    data-flagged={isFlagged || undefined}
                    p={8}
                    radius="md"
                    withBorder
                    bg={m.role === 'learner' ? 'var(--mantine-color-default-hover)' : undefined}
                    style={{
                      alignSelf: m.role === 'learner' ? 'flex-start' : 'flex-end',
                      maxWidth: '92%',
                      ...(isFlagged
                        ? { borderColor: `var(--mantine-color-${sourceColor(item.source)}-filled)`, borderWidth: 2 }
                        : {}),
                    }}
                  >
                    <Text size="xs" c="dimmed">
                      {m.role === 'learner' ? 'Learner' : 'Mentor'} · {formatDateTime(m.timestamp)}
                      {isFlagged ? (deletable(item) ? ' · flagged' : ' · rated down') : ''}
                    </Text>
                    <Text size="sm" dir="auto" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                      {m.content}
                    </Text>
                  </Paper>
                );
              })}
            </Stack>
          )}
        </Stack>
      </div>
    </Stack>
  );
}
