import { Alert, Button, Group, Kbd, Menu, Text, Textarea } from '@mantine/core';
import { forwardRef, useCallback, useEffect, useRef, useState } from 'react';
import { expandCannedReply, type TicketDetail, type TicketReplyOutcome } from '../../../shared/contract';
import { errorMessage } from '../../bridge/errors';
import { useCall } from '../../queries/useCall';
import { CannedRepliesModal } from './CannedRepliesModal';

interface ReplyBoxProps {
  ticket: TicketDetail;
  /** Sends; the caller shows the reply at once and rolls it back if refused. */
  send(message: string, force: boolean): Promise<TicketReplyOutcome | null>;
  /** The ticket changed: what the admin now sees becomes the new reference. */
  onReviewed(): void;
  /** Back to the list (Escape, or after sending). */
  onDone(): void;
  /** Keeps the draft on this computer (empty text removes it). */
  saveDraft(text: string): void;
  disabled?: boolean;
  /** What became of the last reply ("Reply sent at 14:02."), shown under the box. */
  note?: string | null;
  /** The admin types again: the note about the last reply goes. */
  onTyping?(): void;
}

/**
 * The reply: Ctrl+Enter sends, the draft is kept locally per ticket as it is typed, canned replies fill in
 * {first_name} and {mentor}. A ticket that changed since it was opened asks before anything is sent.
 */
export const ReplyBox = forwardRef<HTMLTextAreaElement, ReplyBoxProps>(function ReplyBox(
  { ticket, send, onReviewed, onDone, saveDraft, disabled, note, onTyping },
  ref,
) {
  const canned = useCall('tickets.cannedReplies', {});
  const [text, setText] = useState(ticket.draft ?? '');
  const [changed, setChanged] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [manage, setManage] = useState(false);
  const saveTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const lastSaved = useRef(ticket.draft ?? '');
  /** Typed but not saved yet (the save waits for a pause in typing). */
  const unsaved = useRef<string | null>(null);

  const flush = useCallback(() => {
    clearTimeout(saveTimer.current);
    const value = unsaved.current;
    unsaved.current = null;
    if (value === null || value === lastSaved.current) return;
    lastSaved.current = value;
    saveDraft(value);
  }, [saveDraft]);

  function update(value: string) {
    setText(value);
    onTyping?.();
    unsaved.current = value;
    clearTimeout(saveTimer.current);
    saveTimer.current = setTimeout(flush, 500);
  }

  // What was typed last is saved when the box goes away (another ticket, Esc then e), the window hides or the page
  // unloads: the pause in typing may never come.
  useEffect(() => {
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') flush();
    };
    document.addEventListener('visibilitychange', onVisibility);
    window.addEventListener('pagehide', flush);
    window.addEventListener('beforeunload', flush);
    return () => {
      document.removeEventListener('visibilitychange', onVisibility);
      window.removeEventListener('pagehide', flush);
      window.removeEventListener('beforeunload', flush);
      flush();
    };
  }, [flush]);

  async function submit(force: boolean) {
    const message = text.trim();
    if (!message || sending) return;
    // The engine keeps the message as the draft until it is sent.
    clearTimeout(saveTimer.current);
    unsaved.current = null;
    setSending(true);
    setProblem(null);
    try {
      const outcome = await send(message, force);
      if (!outcome) return;
      if (outcome.state === 'changed') {
        setChanged(outcome.message);
        return;
      }
      setChanged(null);
      if (outcome.state === 'failed') {
        setProblem(outcome.message);
        return;
      }
      setText('');
      lastSaved.current = '';
      onDone();
    } catch (error) {
      setProblem(errorMessage(error));
    } finally {
      setSending(false);
    }
  }

  return (
    <div>
      {changed && (
        <Alert color="orange" title="This ticket changed since you opened it" mb="xs" role="alert">
          <Text size="sm" mb="xs">
            {changed}
          </Text>
          <Group gap="xs">
            <Button size="xs" color="orange" onClick={() => void submit(true)} loading={sending}>
              Send anyway
            </Button>
            <Button
              size="xs"
              variant="default"
              onClick={() => {
                setChanged(null);
                onReviewed();
              }}
            >
              I have read it — keep editing
            </Button>
          </Group>
        </Alert>
      )}
      {problem && (
        <Alert color="red" mb="xs" role="alert" title="Not sent">
          {problem} Your text is still here.
        </Alert>
      )}
      <Textarea
        ref={ref}
        value={text}
        onChange={(event) => update(event.currentTarget.value)}
        onBlur={flush}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
            event.preventDefault();
            void submit(!!changed);
          } else if (event.key === 'Escape') {
            event.preventDefault();
            onDone();
          }
        }}
        placeholder="Write a reply… (Ctrl+Enter sends, Esc goes back to the list)"
        aria-label="Reply"
        autosize
        minRows={3}
        maxRows={12}
        dir="auto"
        disabled={disabled}
      />
      <Group justify="space-between" mt={6}>
        <Group gap="xs">
          <Menu position="top-start" withinPortal>
            <Menu.Target>
              <Button size="xs" variant="default" disabled={disabled}>
                Canned replies
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              {(canned.data?.replies ?? []).map((reply) => (
                <Menu.Item
                  key={reply.id}
                  onClick={() => {
                    const filled = expandCannedReply(reply.body, ticket);
                    update(text.trim() ? `${text.trimEnd()}\n\n${filled}` : filled);
                    setTimeout(() => (ref as React.RefObject<HTMLTextAreaElement | null>).current?.focus(), 0);
                  }}
                >
                  {reply.title}
                </Menu.Item>
              ))}
              {!canned.data?.replies.length && <Menu.Label>None yet</Menu.Label>}
              <Menu.Divider />
              <Menu.Item onClick={() => setManage(true)}>Manage canned replies…</Menu.Item>
            </Menu.Dropdown>
          </Menu>
          <Text size="xs" c={note ? 'teal' : 'dimmed'} role="status" data-testid="reply-note">
            {note ?? 'Draft kept on this computer'}
          </Text>
        </Group>
        <Button size="xs" onClick={() => void submit(!!changed)} loading={sending} disabled={disabled || !text.trim()}>
          Send{' '}
          <Kbd ml={6} size="xs">
            Ctrl+Enter
          </Kbd>
        </Button>
      </Group>
      <CannedRepliesModal opened={manage} onClose={() => setManage(false)} />
    </div>
  );
});
