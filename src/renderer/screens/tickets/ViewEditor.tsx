import { Alert, Button, Checkbox, Group, Modal, NumberInput, Select, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import {
  TICKET_SORTS,
  TICKET_STATUSES,
  type TicketFilter,
  type TicketSort,
  type TicketStatus,
  type TicketView,
} from '../../../shared/contract';
import { saveErrors } from '../../bridge/errors';
import { useCall, useMutationCall } from '../../queries/useCall';
import { STATUS_LABEL } from './format';
import { targetText } from '../../components/TicketSlaTargets';

const SORT_LABEL: Record<TicketSort, string> = {
  newest: 'Newest',
  oldest: 'Oldest',
  activity: 'Last activity',
  waiting: 'Waiting longest',
};

interface ViewEditorProps {
  /** A view to edit; null to make a new saved view; undefined when closed. */
  view: TicketView | null | undefined;
  mentors: { id: string; label: string }[];
  /** The search box's text, offered as the new view's text. */
  search: string;
  onClose(): void;
  onSaved(id: string): void;
}

/** A saved view (status, mentor, requester, dates, text, sort) and the SLA targets of any view (local only). */
export function ViewEditor({ view, mentors, search, onClose, onSaved }: ViewEditorProps) {
  const savedView = view === null || view?.kind === 'saved';
  return (
    <Modal
      opened={view !== undefined}
      onClose={onClose}
      title={view === null ? 'New saved view' : savedView ? `Edit “${view?.label}”` : `SLA targets: ${view?.label}`}
      size="lg"
    >
      {view !== undefined && (
        <ViewForm
          key={view?.id ?? 'new'}
          view={view}
          mentors={mentors}
          search={search}
          onClose={onClose}
          onSaved={onSaved}
        />
      )}
    </Modal>
  );
}

function ViewForm({ view, mentors, search, onClose, onSaved }: ViewEditorProps & { view: TicketView | null }) {
  const save = useMutationCall('tickets.saveView');
  const [name, setName] = useState(view?.label ?? '');
  const [filter, setFilter] = useState<TicketFilter>(
    () => view?.filter ?? (search ? { text: search } : { statuses: ['open', 'in_progress'] }),
  );
  const [sort, setSort] = useState<TicketSort | null>(view?.sort ?? null);
  // Empty: the view follows the tenant's targets (Settings, or "SLA targets…" under the views).
  const tenant = useCall('tickets.slaDefaults', {}).data;
  const [firstReply, setFirstReply] = useState<number | string>(view?.sla.firstReplyHours ?? '');
  const [resolution, setResolution] = useState<number | string>(view?.sla.resolutionHours ?? '');
  const savedView = view === null || view.kind === 'saved';

  const set = <K extends keyof TicketFilter>(key: K, value: TicketFilter[K] | undefined | '') =>
    setFilter((f) => {
      const next = { ...f };
      if (value === undefined || value === '' || (Array.isArray(value) && !value.length)) delete next[key];
      else next[key] = value as TicketFilter[K];
      return next;
    });
  const hours = (v: number | string) => (typeof v === 'number' && v > 0 ? v : null);
  // The engine refuses a backwards range too; saying it here, at the field, spares a round trip.
  const backwards =
    filter.createdFrom && filter.createdTo && filter.createdFrom > filter.createdTo
      ? `'To' (${filter.createdTo}) is before 'From' (${filter.createdFrom}): no ticket could match`
      : null;
  const refused = save.error
    ? saveErrors(save.error, (issues) => {
        const fields: Record<string, string> = {};
        const other: string[] = [];
        for (const issue of issues) {
          const field = issue.path.replace(/^(filter|sla)\./, '');
          if (issue.path && !(field in fields)) fields[field] = issue.message;
          else other.push(issue.message);
        }
        return { fields, other };
      })
    : null;
  const fieldError = (field: string) => (refused?.fields as Record<string, string> | undefined)?.[field];

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (backwards) return;
        save.mutate(
          {
            ...(view ? { id: view.id } : {}),
            ...(savedView ? { name, filter, sort } : {}),
            sla: { firstReplyHours: hours(firstReply), resolutionHours: hours(resolution) },
          },
          {
            onSuccess: (saved) => {
              onSaved(saved.id);
              onClose();
            },
          },
        );
      }}
    >
      <Stack>
        {refused?.form && (
          <Alert color="red" role="alert" title="View not saved">
            {refused.form}
          </Alert>
        )}
        {savedView && (
          <>
            <TextInput
              label="Name"
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              error={fieldError('name')}
              required
              data-autofocus
            />
            <Checkbox.Group
              label="Status"
              value={filter.statuses ?? []}
              onChange={(v) => set('statuses', v as TicketStatus[])}
            >
              <Group mt={4}>
                {TICKET_STATUSES.map((s) => (
                  <Checkbox key={s} value={s} label={STATUS_LABEL[s]} />
                ))}
              </Group>
            </Checkbox.Group>
            <Select
              label="Mentor"
              data={mentors.map((m) => ({ value: m.id, label: m.label }))}
              value={filter.mentorId ?? null}
              onChange={(v) => set('mentorId', v ?? undefined)}
              clearable
              searchable
              placeholder="Any mentor"
            />
            <TextInput
              label="Requester"
              description="Username, email or name (contains)"
              value={filter.requester ?? ''}
              onChange={(e) => set('requester', e.currentTarget.value)}
              error={fieldError('requester')}
            />
            <Group grow align="flex-start">
              <TextInput
                type="date"
                label="Created from"
                value={filter.createdFrom ?? ''}
                onChange={(e) => set('createdFrom', e.currentTarget.value)}
                error={fieldError('createdFrom')}
              />
              <TextInput
                type="date"
                label="Created to"
                value={filter.createdTo ?? ''}
                onChange={(e) => set('createdTo', e.currentTarget.value)}
                error={backwards ?? fieldError('createdTo')}
              />
            </Group>
            <TextInput
              label="Text"
              description="Words in the subject, description, requester or messages"
              value={filter.text ?? ''}
              onChange={(e) => set('text', e.currentTarget.value)}
              error={fieldError('text')}
            />
            <Group grow>
              <Checkbox
                label="Claimed by me"
                checked={!!filter.mine}
                onChange={(e) => set('mine', e.currentTarget.checked || undefined)}
              />
              <Checkbox
                label="Unread only"
                checked={!!filter.unreadOnly}
                onChange={(e) => set('unreadOnly', e.currentTarget.checked || undefined)}
              />
            </Group>
            <Select
              label="Sort"
              data={TICKET_SORTS.map((s) => ({ value: s, label: SORT_LABEL[s] }))}
              value={sort}
              onChange={(v) => setSort((v as TicketSort | null) ?? null)}
              clearable
              placeholder="Newest"
            />
          </>
        )}
        <div>
          <Text size="sm" fw={600}>
            SLA targets (local only)
          </Text>
          <Text size="xs" c="dimmed">
            Empty: the tenant&apos;s targets (first reply {targetText(tenant?.firstReplyHours ?? null)}, resolution{' '}
            {targetText(tenant?.resolutionHours ?? null)}).
          </Text>
        </div>
        <Group grow>
          <NumberInput
            label="First reply within (hours)"
            min={0}
            value={firstReply}
            onChange={setFirstReply}
            error={fieldError('firstReplyHours')}
            placeholder="Tenant’s"
          />
          <NumberInput
            label="Resolution within (hours)"
            min={0}
            value={resolution}
            onChange={setResolution}
            error={fieldError('resolutionHours')}
            placeholder="Tenant’s"
          />
        </Group>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending} disabled={!!backwards}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export { SORT_LABEL };
