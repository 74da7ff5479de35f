import { Alert, Badge, Button, Group, Kbd, Loader, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { memo, useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import {
  BridgeCallError,
  type CallOutput,
  type TicketReplyOutcome,
  type TicketSummary,
} from '../../../shared/contract';
import { useBridge } from '../../bridge/BridgeContext';
import { errorMessage } from '../../bridge/errors';
import { notifyError } from '../../components/notify';
import { ConfirmModal } from '../../components/ConfirmModal';
import { useCall, useCallKey } from '../../queries/useCall';
import { ConversationPanel } from './ConversationPanel';
import { STATUS_COLOR, STATUS_LABEL } from './format';
import { LocalFields } from './LocalFields';
import { ReplyBox } from './ReplyBox';
import { RichText } from './RichText';
import { Thread, type PendingReply } from './Thread';
import type { TicketActions } from './useTicketActions';
import { formatDateTime, formatTime } from '../../lib/format';
import { SavedCopyNote } from '../../components/FreshnessBar';
import { useTenantReach } from '../../tenants/useTenantReach';

interface TicketPaneProps {
  id: number;
  me: string;
  replyRef: RefObject<HTMLTextAreaElement | null>;
  actions: TicketActions;
  /** SLA clocks as the current view's targets give them (the default targets otherwise). */
  sla?: TicketSummary['sla'] | undefined;
  /** Focus goes back to the queue (after sending, Escape, deleting). */
  onBackToList(): void;
}

/** One ticket: details, the safe description, the thread, the reply, local fields and the learner's chat beside it. */
export const TicketPane = memo(function TicketPane({ id, me, replyRef, actions, sla, onBackToList }: TicketPaneProps) {
  const bridge = useBridge();
  const queryClient = useQueryClient();
  const callKey = useCallKey();
  const input = { id, markRead: true };
  const detail = useCall('tickets.get', input);
  const [offline, setOffline] = useState<string | null>(null);
  const bannerSaysWhy = useTenantReach().unreachable;
  const [pending, setPending] = useState<PendingReply[]>([]);
  const [loadImages, setLoadImages] = useState(false);
  const [editing, setEditing] = useState<string | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [sideReady, setSideReady] = useState(false);
  const [replyNote, setReplyNote] = useState<string | null>(null);
  useEffect(() => {
    const frame = requestAnimationFrame(() => setSideReady(true));
    return () => cancelAnimationFrame(frame);
  }, []);
  /** What the admin saw when opening: the reply's change check compares against it. */
  const seen = useRef<{ id: number; updatedAt: string; messageCount: number } | null>(null);

  const data = detail.data && detail.data.ticket.id === id ? detail.data : undefined;
  if (data && seen.current?.id !== id) {
    seen.current = { id, updatedAt: data.ticket.updatedAt, messageCount: data.messageTotal };
  }

  // Shown from the cache at once; then asked of the server (a ticket deleted there says so).
  useEffect(() => {
    setOffline(null);
    setPending([]);
    setLoadImages(false);
    setEditing(null);
    let live = true;
    bridge.call('tickets.get', { id, refresh: true, markRead: true }).then(
      (fresh) => {
        if (!live) return;
        queryClient.setQueryData(callKey('tickets.get', { id, markRead: true }), fresh);
        setOffline(fresh.offline);
        // What the admin sees now is what they opened.
        seen.current = { id, updatedAt: fresh.ticket.updatedAt, messageCount: fresh.messageTotal };
      },
      (error: unknown) => {
        if (!live) return;
        if (error instanceof BridgeCallError && (error.code === 'not_found' || error.status === 403)) {
          void queryClient.invalidateQueries({ queryKey: callKey('tickets.get', { id, markRead: true }) });
        } else setOffline(errorMessage(error));
      },
    );
    return () => {
      live = false;
    };
  }, [id, bridge, queryClient, callKey]);

  /**
   * The draft goes to the engine and into the cached ticket, so coming back to this ticket at once (the pane is
   * rebuilt per ticket) shows every word rather than the draft as it was when the ticket was first read.
   */
  const saveDraft = useCallback(
    (text: string) => {
      queryClient.setQueryData<CallOutput<'tickets.get'>>(
        callKey('tickets.get', { id, markRead: true }),
        (cached) => cached && { ...cached, ticket: { ...cached.ticket, draft: text || null } },
      );
      void bridge.call('tickets.saveDraft', { id, text }).catch(() => {});
    },
    [id, bridge, queryClient, callKey],
  );

  const gone =
    detail.error instanceof BridgeCallError && (detail.error.code === 'not_found' || detail.error.status === 403);

  if (!data) {
    if (detail.error)
      return (
        <Alert color="red" title={`Ticket #${id}`} role="alert" data-testid="ticket-pane" data-ticket={id}>
          {errorMessage(detail.error)}
        </Alert>
      );
    return <Loader aria-label="Loading the ticket" />;
  }
  const { ticket } = data;

  async function send(message: string, force: boolean): Promise<TicketReplyOutcome | null> {
    const key = `${Date.now()}`;
    setPending((list) => [...list, { key, message, state: 'sending' }]);
    try {
      const outcome = await bridge.call('tickets.reply', {
        id,
        message,
        force,
        ...(seen.current?.id === id
          ? { seen: { updatedAt: seen.current.updatedAt, messageCount: seen.current.messageCount } }
          : {}),
      });
      await queryClient.invalidateQueries({ queryKey: callKey('tickets.get', { id, markRead: true }) });
      if (outcome.state === 'failed') {
        setPending((list) =>
          list.map((p) => (p.key === key ? { ...p, state: 'failed', error: outcome.message ?? '' } : p)),
        );
      } else setPending((list) => list.filter((p) => p.key !== key));
      announce(outcome);
      return outcome;
    } catch (error) {
      setPending((list) =>
        list.map((p) => (p.key === key ? { ...p, state: 'failed', error: errorMessage(error) } : p)),
      );
      throw error;
    }
  }

  /** Said beside the reply box (no notification over it): the reply itself is in the thread. */
  function announce(outcome: TicketReplyOutcome) {
    const at = formatTime(new Date());
    if (outcome.state === 'sent') setReplyNote(`Reply sent at ${at}.`);
    if (outcome.state === 'queued')
      setReplyNote(outcome.message ?? 'Reply queued: it is sent when the tenant answers again.');
  }

  /** "Send anyway" on a queued reply that the change check paused: the same job goes out without the check. */
  async function sendQueued(jobId: string) {
    try {
      const outcome = await bridge.call('tickets.sendQueued', { jobId });
      announce(outcome);
      if (outcome.state === 'failed') notifyError('Reply not sent', new Error(outcome.message ?? 'Refused'));
    } catch (error) {
      notifyError('Could not send', error);
    } finally {
      await queryClient.invalidateQueries({ queryKey: callKey('tickets.get', { id, markRead: true }) });
    }
  }

  async function saveSubject() {
    if (editing === null) return;
    const subject = editing.trim();
    setEditing(null);
    if (!subject || subject === ticket.subject) return;
    await actions.updateSubject(id, subject);
  }

  return (
    <Stack gap="sm" data-testid="ticket-pane" data-ticket={id} data-ready="true" data-status={ticket.status}>
      {gone && (
        <Alert color="red" role="alert" title="This ticket is gone from the server">
          {errorMessage(detail.error)} What was on screen is kept below, and so is your draft.
        </Alert>
      )}
      {/* The app's banner says the tenant cannot be reached: the ticket only says it is the saved copy. */}
      {offline && bannerSaysWhy && <SavedCopyNote asOf={null} />}
      {offline && !bannerSaysWhy && (
        <Alert color="yellow" role="status">
          {offline}
        </Alert>
      )}
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        {editing === null ? (
          <Title order={2} size="h4" dir="auto" style={{ overflowWrap: 'break-word', minWidth: 0, flex: 1 }}>
            {ticket.subject}
          </Title>
        ) : (
          <TextInput
            aria-label="Subject"
            value={editing}
            onChange={(e) => setEditing(e.currentTarget.value)}
            autoFocus
            style={{ flex: 1 }}
            dir="auto"
            onKeyDown={(e) => {
              if (e.key === 'Enter') void saveSubject();
              if (e.key === 'Escape') {
                e.stopPropagation();
                setEditing(null);
              }
            }}
            onBlur={() => void saveSubject()}
          />
        )}
        <Badge color={STATUS_COLOR[ticket.status]} variant="light" size="lg" style={{ flexShrink: 0 }}>
          {STATUS_LABEL[ticket.status]}
        </Badge>
      </Group>
      <Group gap="xs">
        <Button size="xs" variant="default" onClick={() => replyRef.current?.focus()} disabled={gone}>
          Reply{' '}
          <Kbd ml={6} size="xs">
            r
          </Kbd>
        </Button>
        {ticket.status !== 'in_progress' && ticket.status !== 'closed' && (
          <Button
            size="xs"
            variant="default"
            onClick={() => void actions.setStatus([id], 'in_progress')}
            disabled={gone}
          >
            In progress{' '}
            <Kbd ml={6} size="xs">
              i
            </Kbd>
          </Button>
        )}
        {ticket.status !== 'closed' ? (
          <Button size="xs" variant="default" onClick={() => void actions.setStatus([id], 'closed')} disabled={gone}>
            Close{' '}
            <Kbd ml={6} size="xs">
              e
            </Kbd>
          </Button>
        ) : (
          <Button size="xs" variant="default" onClick={() => void actions.setStatus([id], 'open')} disabled={gone}>
            Reopen{' '}
            <Kbd ml={6} size="xs">
              Shift+O
            </Kbd>
          </Button>
        )}
        <Button size="xs" variant="subtle" onClick={() => setEditing(ticket.subject)} disabled={gone}>
          Edit subject
        </Button>
        <Button size="xs" variant="subtle" color="red" onClick={() => setConfirmDelete(true)} disabled={gone}>
          Delete…
        </Button>
      </Group>
      <Text size="sm">
        <b dir="auto">{ticket.requester.name || ticket.requester.username}</b> · {ticket.requester.username} ·{' '}
        {ticket.requester.email}
      </Text>
      <Text size="xs" c="dimmed">
        #{ticket.id} · Mentor {ticket.mentorName ?? ticket.mentorId} · Created {formatDateTime(ticket.createdAt)} ·
        Updated {formatDateTime(ticket.updatedAt)} · Resolved {formatDateTime(ticket.resolvedAt)}
      </Text>
      <div
        style={{
          display: 'grid',
          gridTemplateColumns: 'repeat(auto-fit, minmax(340px, 1fr))',
          gap: 16,
          alignItems: 'start',
        }}
      >
        <Stack gap="sm" style={{ minWidth: 0 }}>
          <div aria-label="Description" role="region" data-testid="ticket-description">
            {ticket.removed.length > 0 && (
              <Text size="xs" c="orange" mb={4}>
                Removed for safety: {ticket.removed.join(', ')}
              </Text>
            )}
            <RichText nodes={ticket.descriptionDoc} loadImages={loadImages} ticketId={ticket.id} />
            {ticket.remoteImages > 0 && !loadImages && (
              <Button size="compact-xs" variant="subtle" onClick={() => setLoadImages(true)}>
                Show {ticket.remoteImages} remote image{ticket.remoteImages === 1 ? '' : 's'}
              </Button>
            )}
          </div>
          <Thread
            ticket={ticket}
            messages={data.messages}
            total={data.messageTotal}
            queued={data.queued}
            pending={pending}
            onDismissQueued={(jobId) => {
              void bridge
                .call('jobs.cancel', { id: jobId })
                .then(() => queryClient.invalidateQueries({ queryKey: callKey('tickets.get', { id, markRead: true }) }))
                .catch((error: unknown) => notifyError('Could not dismiss', error));
            }}
            onSendQueued={sendQueued}
          />
          <ReplyBox
            ref={replyRef}
            ticket={ticket}
            send={send}
            onReviewed={() => {
              seen.current = { id, updatedAt: ticket.updatedAt, messageCount: data.messageTotal };
            }}
            onDone={onBackToList}
            saveDraft={saveDraft}
            disabled={gone}
            note={replyNote}
            onTyping={() => setReplyNote(null)}
          />
        </Stack>
        {/* The side column comes a frame later: the ticket and its thread are on screen first. */}
        {sideReady && (
          <Stack gap="sm" style={{ minWidth: 0 }}>
            <LocalFields ticket={sla ? { ...ticket, sla } : ticket} me={me} />
            <ConversationPanel id={id} />
          </Stack>
        )}
      </div>
      {/* The shared confirmation: Cancel has the focus, so Enter on arrival deletes nothing. */}
      <ConfirmModal
        target={confirmDelete ? id : null}
        title={`Delete ticket #${id}?`}
        confirmLabel="Delete"
        onClose={() => setConfirmDelete(false)}
        onConfirm={(ticketId, close) => {
          close();
          void actions.remove(ticketId).then(onBackToList);
        }}
      >
        {() => (
          <Text size="sm">
            This deletes the ticket and its thread on the platform, for everyone. It cannot be undone.
          </Text>
        )}
      </ConfirmModal>
    </Stack>
  );
});
