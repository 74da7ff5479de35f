import { Alert, Button, Group, Modal, Select, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import type { ReviewItem } from '../../../shared/contract';
import { errorMessage } from '../../bridge/errors';
import { useBridge } from '../../bridge/BridgeContext';
import { ticketNote } from '../../lib/reviewQuote';
import { useCall } from '../../queries/useCall';
import { navigateTo } from '../../shell/routes';

/**
 * "Turn into a ticket note": the platform has no internal ticket notes and no call that opens a ticket (mentors open
 * them), so the note becomes the reply draft of a ticket the admin picks — the learner's own first — and the ticket
 * opens with it, where nothing is sent until the admin sends it.
 */
export function TicketNoteModal({ item, onClose }: { item: ReviewItem | null; onClose(): void }) {
  return (
    <Modal opened={!!item} onClose={onClose} title="Turn into a ticket note" size="lg">
      {item && <TicketNoteBody item={item} onClose={onClose} />}
    </Modal>
  );
}

function TicketNoteBody({ item, onClose }: { item: ReviewItem; onClose(): void }) {
  const bridge = useBridge();
  const theirs = useCall('tickets.list', { view: 'all', filter: { requester: item.learner }, limit: 50 });
  const open = useCall('tickets.list', { view: 'open', limit: 100 });
  const [picked, setPicked] = useState<string | null>(null);
  const [text, setText] = useState(() => ticketNote(item));
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const mine = theirs.data?.rows ?? [];
  const others = (open.data?.rows ?? []).filter((t) => !mine.some((m) => m.id === t.id));
  const label = (t: (typeof mine)[number]) => `#${t.id} ${t.subject} (${t.status.replace('_', ' ')})`;
  // The learner's latest ticket until the admin picks another.
  const ticket = picked ?? (mine[0] ? String(mine[0].id) : null);

  async function save() {
    if (!ticket) return;
    setSaving(true);
    setError(null);
    try {
      const id = Number(ticket);
      const { ticket: current } = await bridge.call('tickets.get', { id });
      const draft = current.draft?.trim() ? `${current.draft.trimEnd()}\n\n${text}` : text;
      await bridge.call('tickets.saveDraft', { id, text: draft });
      onClose();
      navigateTo(`#/tickets/${id}`);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setSaving(false);
    }
  }

  return (
    <Stack gap="sm" data-testid="ticket-note">
      <Text size="sm" c="dimmed">
        The platform keeps no internal ticket notes and offers no way to open a ticket (mentors open them). The note is
        kept as the ticket&apos;s reply draft on this computer: nothing reaches the learner until you send it.
      </Text>
      <Select
        label="Ticket"
        placeholder={theirs.isPending || open.isPending ? 'Loading tickets…' : 'Pick a ticket'}
        searchable
        value={ticket}
        onChange={setPicked}
        nothingFoundMessage="No ticket matches"
        data={[
          { group: `${item.learner}'s tickets`, items: mine.map((t) => ({ value: String(t.id), label: label(t) })) },
          { group: 'Other open tickets', items: others.map((t) => ({ value: String(t.id), label: label(t) })) },
        ].filter((g) => g.items.length)}
      />
      {theirs.data && !mine.length && (
        <Text size="xs" c="dimmed">
          {item.learner} has no ticket on this tenant.
        </Text>
      )}
      <Textarea
        label="Note"
        autosize
        minRows={5}
        maxRows={12}
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
      />
      {(error || theirs.error) && <Alert color="red">{error ?? errorMessage(theirs.error)}</Alert>}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button onClick={() => void save()} loading={saving} disabled={!ticket || !text.trim()}>
          Keep as draft and open the ticket
        </Button>
      </Group>
    </Stack>
  );
}
