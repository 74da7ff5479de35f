import { Badge, Button, Group, Paper, Select, TagsInput, Text, Tooltip } from '@mantine/core';
import { TICKET_PRIORITIES, type TicketPriority, type TicketSummary } from '../../../shared/contract';
import { notifyError } from '../../components/notify';
import { useMutationCall } from '../../queries/useCall';
import { slaLabel } from './format';

/** Claim, priority, tags and SLA clocks: the platform has none of these, so they live (and stay) on this computer. */
export function LocalFields({ ticket, me }: { ticket: TicketSummary; me: string }) {
  const setLocal = useMutationCall('tickets.setLocal');
  const change = (fields: { assignee?: string | null; priority?: TicketPriority | null; tags?: string[] }) =>
    setLocal.mutate({ ids: [ticket.id], ...fields }, { onError: (error) => notifyError('Not saved', error) });
  const mine = ticket.local.assignee === me;
  const clocks = [slaLabel('First reply', ticket.sla.firstReply), slaLabel('Resolution', ticket.sla.resolution)].filter(
    (c): c is NonNullable<typeof c> => !!c,
  );
  return (
    <Paper withBorder p="xs" radius="md" aria-label="Local-only fields" role="group">
      <Group justify="space-between" mb={6}>
        <Tooltip label="Kept on this computer only: the platform has no assignee, priority, tags or SLA">
          <Badge variant="outline" color="gray" size="sm">
            Local only
          </Badge>
        </Tooltip>
        <Group gap={4}>
          {clocks.map((c) => (
            <Badge key={c.text} color={c.color} variant="light" size="sm" title={c.title}>
              {c.text}
            </Badge>
          ))}
        </Group>
      </Group>
      <Group gap="xs" align="flex-end" wrap="wrap">
        <div>
          <Text size="xs" c="dimmed">
            Assignee
          </Text>
          <Group gap={6}>
            <Text size="sm">{ticket.local.assignee ?? 'Nobody'}</Text>
            <Button size="compact-xs" variant="default" onClick={() => change({ assignee: mine ? null : 'me' })}>
              {mine ? 'Unclaim' : 'Claim'}
            </Button>
          </Group>
        </div>
        <Select
          label="Priority"
          size="xs"
          w={120}
          data={TICKET_PRIORITIES.map((p) => ({ value: p, label: p[0]!.toUpperCase() + p.slice(1) }))}
          value={ticket.local.priority}
          onChange={(value) => change({ priority: (value as TicketPriority | null) ?? null })}
          clearable
          placeholder="None"
        />
        <TagsInput
          label="Tags"
          size="xs"
          style={{ flex: 1, minWidth: 160 }}
          value={ticket.local.tags}
          onChange={(tags) => change({ tags })}
          placeholder="Add a tag"
          maxTags={20}
        />
      </Group>
    </Paper>
  );
}
