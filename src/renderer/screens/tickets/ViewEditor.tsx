import { Alert, Button, Checkbox, Group, Modal, NumberInput, Select, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import {
  calls,
  TICKET_SORTS,
  TICKET_STATUSES,
  type TicketFilter,
  type TicketSort,
  type TicketStatus,
  type TicketView,
} from '../../../shared/contract';
import { contractResolver, showSaveError } from '../../lib/forms';
import { useCall, useMutationCall } from '../../queries/useCall';
import { STATUS_LABEL } from './format';
import { targetText } from '../../components/TicketSlaTargets';
import { DayInput } from '../../components/DayInput';
import { formatDay } from '../../lib/format';

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

/** The filter as the form edits it: every box present; an empty one narrows nothing and is not sent. */
interface FilterValues {
  statuses: TicketStatus[];
  mentorId: string | null;
  requester: string;
  createdFrom: string;
  createdTo: string;
  text: string;
  mine: boolean;
  unreadOnly: boolean;
}

interface ViewValues {
  name: string;
  filter: FilterValues;
  sort: TicketSort | null;
  /** A number, or '' while empty (the view follows the tenant's targets). */
  sla: { firstReplyHours: number | string; resolutionHours: number | string };
}

const filterValues = (filter: TicketFilter): FilterValues => ({
  statuses: filter.statuses ?? [],
  mentorId: filter.mentorId ?? null,
  requester: filter.requester ?? '',
  createdFrom: filter.createdFrom ?? '',
  createdTo: filter.createdTo ?? '',
  text: filter.text ?? '',
  mine: filter.mine ?? false,
  unreadOnly: filter.unreadOnly ?? false,
});

/** The filter sent: what the view had that the form does not edit (priority, tag), and every box not left empty. */
function toFilter(base: TicketFilter, values: FilterValues): TicketFilter {
  const filter: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(values)) {
    if (value === null || value === '' || value === false || (Array.isArray(value) && !value.length))
      delete filter[key];
    else filter[key] = value;
  }
  return filter as TicketFilter;
}

const hours = (v: number | string) => (typeof v === 'number' && v > 0 ? v : null);

/** The fields that show their own errors: a nested issue (`filter.statuses.0`) belongs to its box. */
const FIELD_PATHS = new Set([
  'name',
  'sort',
  ...Object.keys(filterValues({})).map((key) => `filter.${key}`),
  'sla.firstReplyHours',
  'sla.resolutionHours',
]);
const fieldOf = (path: string) => {
  const [head = '', next] = path.split('.');
  const field = head === 'filter' || head === 'sla' ? `${head}.${next}` : head;
  return FIELD_PATHS.has(field) ? field : undefined;
};

function ViewForm({ view, mentors, search, onClose, onSaved }: ViewEditorProps & { view: TicketView | null }) {
  const save = useMutationCall('tickets.saveView');
  const savedView = view === null || view.kind === 'saved';
  const base = view?.filter ?? (search ? { text: search } : { statuses: ['open', 'in_progress'] as TicketStatus[] });
  /** What Save sends: a built-in or mentor view has only its SLA targets to change. */
  const toInput = (values: ViewValues) => ({
    ...(view ? { id: view.id } : {}),
    ...(savedView ? { name: values.name, filter: toFilter(base, values.filter), sort: values.sort } : {}),
    sla: { firstReplyHours: hours(values.sla.firstReplyHours), resolutionHours: hours(values.sla.resolutionHours) },
  });
  const form = useForm<ViewValues>({
    mode: 'controlled',
    initialValues: {
      name: view?.label ?? '',
      filter: filterValues(base),
      sort: view?.sort ?? null,
      // Empty: the view follows the tenant's targets (Settings, or "SLA targets…" under the views).
      sla: { firstReplyHours: view?.sla.firstReplyHours ?? '', resolutionHours: view?.sla.resolutionHours ?? '' },
    },
    validate: contractResolver(calls['tickets.saveView'].input, toInput, fieldOf),
  });
  const [formError, setFormError] = useState<string | null>(null);
  const tenant = useCall('tickets.slaDefaults', {}).data;
  const { createdFrom, createdTo } = form.values.filter;
  // The engine refuses a backwards range too; saying it here, as it is typed, spares a round trip.
  const backwards =
    createdFrom && createdTo && createdFrom > createdTo
      ? `'To' (${formatDay(createdTo)}) is before 'From' (${formatDay(createdFrom)}): no ticket could match`
      : null;
  const createdToProps = form.getInputProps('filter.createdTo');

  return (
    <form
      onSubmit={form.onSubmit(
        (values) => {
          if (backwards) return;
          setFormError(null);
          save.mutate(toInput(values), {
            onSuccess: (saved) => {
              onSaved(saved.id);
              onClose();
            },
            onError: (error) => setFormError(showSaveError(form, error, fieldOf)),
          });
        },
        () => setFormError(null),
      )}
    >
      <Stack>
        {formError && (
          <Alert color="red" role="alert" title="View not saved">
            {formError}
          </Alert>
        )}
        {savedView && (
          <>
            <TextInput label="Name" {...form.getInputProps('name')} required data-autofocus />
            <Checkbox.Group label="Status" {...form.getInputProps('filter.statuses')}>
              <Group mt={4}>
                {TICKET_STATUSES.map((s) => (
                  <Checkbox key={s} value={s} label={STATUS_LABEL[s]} />
                ))}
              </Group>
            </Checkbox.Group>
            <Select
              label="Mentor"
              data={mentors.map((m) => ({ value: m.id, label: m.label }))}
              {...form.getInputProps('filter.mentorId')}
              clearable
              searchable
              placeholder="Any mentor"
            />
            <TextInput
              label="Requester"
              description="Username, email or name (contains)"
              {...form.getInputProps('filter.requester')}
            />
            <Group grow align="flex-start">
              <DayInput
                label="Created from"
                clearable
                {...form.getInputProps('filter.createdFrom')}
                value={createdFrom}
                maxDay={createdTo || undefined}
              />
              <DayInput
                label="Created to"
                clearable
                {...createdToProps}
                value={createdTo}
                minDay={createdFrom || undefined}
                error={backwards ?? createdToProps.error}
              />
            </Group>
            <TextInput
              label="Text"
              description="Words in the subject, description, requester or messages"
              {...form.getInputProps('filter.text')}
            />
            <Group grow>
              <Checkbox label="Claimed by me" {...form.getInputProps('filter.mine', { type: 'checkbox' })} />
              <Checkbox label="Unread only" {...form.getInputProps('filter.unreadOnly', { type: 'checkbox' })} />
            </Group>
            <Select
              label="Sort"
              data={TICKET_SORTS.map((s) => ({ value: s, label: SORT_LABEL[s] }))}
              {...form.getInputProps('sort')}
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
            {...form.getInputProps('sla.firstReplyHours')}
            placeholder="Tenant’s"
          />
          <NumberInput
            label="Resolution within (hours)"
            min={0}
            {...form.getInputProps('sla.resolutionHours')}
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
