import {
  Anchor,
  Badge,
  Button,
  Group,
  List,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useState, type ReactNode } from 'react';
import type { Freshness, ResourceRecord, TicketSyncState, UserRemoval } from '../../../shared/contract';
import { RESOURCES, SEAT_KINDS, type ResourceKind, type SeatKind } from '../../../shared/resources';
import { LoadErrorAlert } from '../../components/LoadErrorAlert';
import { NOT_AVAILABLE_OFFLINE, SavedCopyNote } from '../../components/FreshnessBar';
import { TypedConfirmModal } from '../../components/TypedConfirmModal';
import { DownloadIcon, TrashIcon } from '../../components/icons';
import { notifyError, notifySuccess } from '../../components/notify';
import { formatDate, formatDateTime } from '../../lib/format';
import { useCall, useMutationCall } from '../../queries/useCall';
import { LearnerMemories } from '../../components/memory/LearnerMemories';
import { EdxMemorySection } from './EdxMemorySection';
import { LearningSection } from './LearningSection';
import { ProfileMemorySection } from './ProfileMemorySection';
import { SectionLoadError, SectionReach, usePageUnreachable, useSavedCopyReport } from '../../components/SectionReach';
import { OFFLINE_WRITE_REFUSAL, WriteButton, WriteIcon, useWriteRefusal } from '../../resources/writeGate';
import { RecordPicker } from '../../resources/Relations';
import { ConfirmModal } from '../../components/ConfirmModal';
import { EraseModal, ErasureUnderway, ExportDataModal } from './PersonDataRequests';
import { SessionModal, type OpenSession } from '../../components/sessions/SessionModal';
import { LicenceTarget } from '../../components/LicenceTarget';

type Row = Record<string, unknown>;
const text = (value: unknown) => (typeof value === 'string' && value ? value : null);

/**
 * Why the page's changes (remove, erase, export) are off, or null: while its sections find the tenant out of reach
 * (a failed read, or a saved copy shown instead), as the kit's lists turn theirs off. The one place that decides it.
 */
export function personWriteRefusal(unreachable: boolean): string | null {
  return unreachable ? OFFLINE_WRITE_REFUSAL : null;
}

/**
 * A person's page (`#/people-and-access/users/<user id>`): who they are, where they belong (departments, user
 * groups, RBAC policies), and what they did (invitations, tickets, recent chats), each section read by the app's
 * existing calls and each with its own loading, empty and offline states (a tenant out of reach said once for the
 * page, see SectionReach); and their removal from the tenant,
 * once their username or email is typed. The tenant's id is part of every call, so another tenant's person never
 * shows under this one's name.
 */
export function PersonPage({ profileId, id, onBack }: { profileId: string; id: string; onBack(): void }) {
  const person = useCall('resources.get', { profileId, kind: 'users', id });
  const [removing, setRemoving] = useState(false);
  const [removed, setRemoved] = useState<UserRemoval | null>(null);
  // Held here, not in the dialog: the removal's own refresh turns this person's read into an error (they are gone),
  // which takes the dialog away before the answer arrives; the page stays to show the report.
  const remove = useMutationCall('people.remove');
  const [exporting, setExporting] = useState(false);
  const [erasing, setErasing] = useState(false);
  const [erasure, setErasure] = useState<string | null>(null);
  const [unreachable, setUnreachable] = useState(false);
  const refusal = personWriteRefusal(unreachable);
  const back = (
    <Anchor component="button" type="button" size="sm" onClick={onBack} style={{ alignSelf: 'flex-start' }}>
      ← All users
    </Anchor>
  );

  if (removed) return <RemovalReport report={removed} onBack={onBack} />;
  if (erasure) return <ErasureUnderway jobId={erasure} onBack={onBack} />;
  if (person.isError && !(remove.isPending && person.data)) {
    return (
      <Stack gap="md">
        {back}
        <LoadErrorAlert
          title="This person could not be loaded"
          error={person.error}
          onRetry={() => void person.refetch()}
        />
      </Stack>
    );
  }
  const record = person.data?.record;
  if (!record) {
    return (
      <Stack gap="md" aria-busy>
        {back}
        <Skeleton height={28} width={260} />
        <Skeleton height={16} width={360} />
        <Skeleton height={160} />
      </Stack>
    );
  }
  const username = String(record.username);
  const email = text(record.email);
  const name = text(record.name) ?? username;
  const userId = Number(record.user_id);

  return (
    <Stack gap="md" data-testid="person-page">
      {back}
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
        <div style={{ minWidth: 0, flex: '1 1 280px' }}>
          <Title order={2} size="h3">
            {name}
          </Title>
          <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {username}
            {email && ` · ${email}`}
          </Text>
          <Group gap="xs" mt={6}>
            {record.is_admin === true && <Badge variant="light">Admin</Badge>}
            {record.is_staff === true && (
              <Badge variant="light" color="grape">
                Staff
              </Badge>
            )}
            <Badge variant="light" color={record.active === false ? 'gray' : 'teal'}>
              {record.active === false ? 'Inactive' : 'Active'}
            </Badge>
            {text(record.added_on) && (
              <Text size="xs" c="dimmed">
                Added {formatDate(String(record.added_on))}
              </Text>
            )}
          </Group>
        </div>
        <Group gap="xs" wrap="wrap">
          <WriteButton
            refusal={refusal}
            variant="default"
            leftSection={<DownloadIcon size={16} />}
            onClick={() => setExporting(true)}
          >
            Export data…
          </WriteButton>
          <WriteButton
            refusal={refusal}
            color="red"
            variant="light"
            leftSection={<TrashIcon size={16} />}
            onClick={() => setRemoving(true)}
          >
            Remove from tenant
          </WriteButton>
          <WriteButton refusal={refusal} color="red" variant="subtle" onClick={() => setErasing(true)}>
            Erase person…
          </WriteButton>
        </Group>
      </Group>

      <SectionReach what={name} onReach={setUnreachable}>
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
          <Memberships profileId={profileId} username={username} userId={userId} name={name} pageRefusal={refusal} />
          <Licences profileId={profileId} username={username} />
          <Invitations profileId={profileId} email={email} />
          <Tickets profileId={profileId} username={username} />
          <Chats profileId={profileId} username={username} />
          <ProfileMemorySection profileId={profileId} username={username} name={name} />
          <EdxMemorySection profileId={profileId} username={username} />
          <LearningSection profileId={profileId} username={username} userId={userId} />
        </SimpleGrid>
        {/* Full width: its filters and table need the room. Keyed so one person's filters never show on another's. */}
        <LearnerMemories key={`${profileId}:${username}`} profileId={profileId} learner={username} />
      </SectionReach>

      <ExportDataModal
        profileId={profileId}
        username={username}
        opened={exporting}
        onClose={() => setExporting(false)}
      />
      <EraseModal
        profileId={profileId}
        username={username}
        opened={erasing}
        onClose={() => setErasing(false)}
        onStarted={({ jobId }) => {
          setErasing(false);
          setErasure(jobId);
        }}
      />
      <RemoveModal
        profileId={profileId}
        remove={remove}
        opened={removing}
        person={record}
        onClose={() => setRemoving(false)}
        onRemoved={(report) => {
          setRemoving(false);
          setRemoved(report);
          notifySuccess('Removed from the tenant', report.username);
        }}
      />
    </Stack>
  );
}

/** One section of the page: its heading, and what it holds or why it holds nothing. */
function Section({
  title,
  testId,
  loading,
  error,
  onRetry,
  freshness,
  empty,
  footer,
  children,
}: {
  title: string;
  testId: string;
  loading: boolean;
  error: unknown;
  onRetry(): void;
  freshness?: Freshness | undefined;
  /** Said when there is nothing to show (null: there is). */
  empty: string | null;
  /** Shown below what was read once it is read, empty or not (a way to add to it). */
  footer?: ReactNode;
  children?: ReactNode;
}) {
  const pageUnreachable = usePageUnreachable();
  const answered = !loading && !error;
  useSavedCopyReport(testId, answered && !!freshness?.offline);
  // An answer from this computer's cache is a saved copy too once another section found the tenant out of reach.
  const savedCopy = answered && (!!freshness?.offline || (pageUnreachable && freshness?.source === 'cache'));
  return (
    <Paper withBorder radius="md" p="md" data-testid={testId}>
      <Stack gap="xs">
        <Title order={3} size="h5">
          {title}
        </Title>
        {error ? (
          <SectionLoadError section={testId} title={`${title} could not be loaded`} error={error} onRetry={onRetry} />
        ) : loading ? (
          <Stack gap={6} aria-busy>
            <Skeleton height={14} />
            <Skeleton height={14} width="70%" />
          </Stack>
        ) : savedCopy && empty ? (
          // Nothing in a saved copy is not nothing on the tenant: the copy may be old, or only part of the list.
          <Text size="sm" c="dimmed" data-testid="section-unavailable">
            {NOT_AVAILABLE_OFFLINE}
          </Text>
        ) : (
          <>
            {/* The app's banner says the tenant cannot be reached: the section only says how old its copy is. */}
            {savedCopy && <SavedCopyNote asOf={freshness?.asOf} size="xs" data-testid={`${testId}-saved-copy`} />}
            {empty ? (
              <Text size="sm" c="dimmed">
                {empty}
              </Text>
            ) : (
              children
            )}
          </>
        )}
        {answered && footer}
      </Stack>
    </Paper>
  );
}

/** One of the person's memberships: a department or a user group, as the kit's membership kind holds it. */
interface Membership {
  kind: 'department-members' | 'user-group-members';
  /** The membership record's id in its kind (a department member by user id, a group link by its own id). */
  id: string;
  group: string;
}

/** Departments, user groups and RBAC policies: the kit's cached lists of each, narrowed to this person. */
function Memberships({
  profileId,
  username,
  userId,
  name,
  pageRefusal,
}: {
  profileId: string;
  username: string;
  userId: number;
  name: string;
  pageRefusal: string | null;
}) {
  const departments = useCall('resources.list', {
    profileId,
    kind: 'department-members',
    where: { username },
    pageSize: 100,
    // "In no department" must not be said from the first page of a long list.
    whole: true,
  });
  const groups = useCall('resources.list', {
    profileId,
    kind: 'user-group-members',
    where: { username },
    pageSize: 100,
    // "In no department" must not be said from the first page of a long list.
    whole: true,
  });
  const policies = useCall('resources.list', { profileId, kind: 'rbac-policies', pageSize: 500, whole: true });
  const granted = (policies.data?.records ?? []).filter((policy) =>
    ((policy.users as Row[] | undefined) ?? []).some((user) => user.id === userId),
  );
  const memberships: Membership[] = [
    ...(departments.data?.records ?? []).map((row) => ({
      kind: 'department-members' as const,
      id: String(row[RESOURCES['department-members'].idField]),
      group: String(row.department_name ?? row.department_id),
    })),
    ...(groups.data?.records ?? []).map((row) => ({
      kind: 'user-group-members' as const,
      id: String(row[RESOURCES['user-group-members'].idField]),
      group: String(row.group_name ?? row.group_id),
    })),
  ];
  const freshness = savedCopyOf(departments.data?.freshness, groups.data?.freshness);
  const refusal = useWriteRefusal(freshness) ?? pageRefusal;
  const [leaving, setLeaving] = useState<Membership | null>(null);
  const leave = useMutationCall('resources.delete');
  return (
    <>
      <Section
        title="Departments and user groups"
        testId="person-memberships"
        loading={departments.isPending || groups.isPending}
        error={departments.error ?? groups.error}
        onRetry={() => void Promise.all([departments.refetch(), groups.refetch()])}
        freshness={freshness}
        empty={memberships.length ? null : 'In no department and no user group.'}
        footer={
          <Stack gap={6}>
            <JoinGroup
              profileId={profileId}
              username={username}
              name={name}
              kind="department-members"
              refusal={refusal}
            />
            <JoinGroup
              profileId={profileId}
              username={username}
              name={name}
              kind="user-group-members"
              refusal={refusal}
            />
          </Stack>
        }
      >
        <Stack gap={6}>
          {memberships.map((membership) => (
            <Group key={`${membership.kind}:${membership.id}`} gap="xs" wrap="nowrap" data-testid="person-membership">
              <Badge variant="outline" size="sm" {...(membership.kind === 'user-group-members' && { color: 'grape' })}>
                {membership.kind === 'department-members' ? 'Department' : 'User group'}
              </Badge>
              <Text size="sm" style={{ flex: 1, minWidth: 0 }}>
                {membership.group}
              </Text>
              <WriteIcon
                refusal={refusal}
                label={`Remove ${name} from ${membership.group}`}
                variant="subtle"
                color="red"
                size="sm"
                onClick={() => setLeaving(membership)}
              >
                <TrashIcon />
              </WriteIcon>
            </Group>
          ))}
        </Stack>
      </Section>
      <ConfirmModal
        target={leaving}
        title="Remove from group"
        mutation={leave}
        failedTitle="Not removed"
        confirmLabel="Remove"
        refusal={refusal}
        onClose={() => setLeaving(null)}
        onConfirm={(membership, close) =>
          leave.mutate(
            { profileId, kind: membership.kind, id: membership.id },
            {
              onSuccess: () => {
                close();
                notifySuccess('Removed', `${name} is no longer in ${membership.group}`);
              },
            },
          )
        }
      >
        {(membership) => (
          <Text size="sm">
            Remove {name} from the {membership.kind === 'department-members' ? 'department' : 'user group'}{' '}
            {membership.group}? They stay on the tenant.
          </Text>
        )}
      </ConfirmModal>
      <Section
        title="Roles and policies"
        testId="person-policies"
        loading={policies.isPending}
        error={policies.error}
        onRetry={() => void policies.refetch()}
        freshness={policies.data?.freshness}
        empty={
          granted.length
            ? null
            : 'No policy names this person directly; an access group they belong to may still grant them some.'
        }
      >
        <Stack gap={4}>
          {granted.map((policy) => (
            <Text size="sm" key={String(policy.id)}>
              <strong>{String(policy.name)}</strong>
              {text((policy.role as Row | undefined)?.name) && ` — role ${String((policy.role as Row).name)}`}
            </Text>
          ))}
        </Stack>
      </Section>
    </>
  );
}

/** The person's seats of each licence family, each a link to its licence's page. */
function Licences({ profileId, username }: { profileId: string; username: string }) {
  // Each family's seats narrowed to the person (the platform lists seats per licence: every licence's are read).
  const seatsOf = (kind: SeatKind) => ({ profileId, kind, where: { username }, pageSize: 100, whole: true });
  const families = [
    { kind: SEAT_KINDS[0], list: useCall('resources.list', seatsOf(SEAT_KINDS[0])) },
    { kind: SEAT_KINDS[1], list: useCall('resources.list', seatsOf(SEAT_KINDS[1])) },
    { kind: SEAT_KINDS[2], list: useCall('resources.list', seatsOf(SEAT_KINDS[2])) },
  ];
  const seats = families.flatMap(({ kind, list }) =>
    (list.data?.records ?? []).map((seat) => ({ kind, seat, seats: RESOURCES[kind].seats })),
  );
  const failed = families.find(({ list }) => list.error);
  return (
    <Section
      title="Licences"
      testId="person-licences"
      loading={families.some(({ list }) => list.isPending)}
      error={failed?.list.error}
      onRetry={() => families.forEach(({ list }) => void list.refetch())}
      freshness={savedCopyOf(...families.map(({ list }) => list.data?.freshness))}
      empty={seats.length ? null : 'Holds no seat of a licence.'}
    >
      <Stack gap={4}>
        {seats.map(({ kind, seat, seats: family }) => (
          <Group key={`${kind}:${String(seat.id)}`} gap="xs" wrap="nowrap">
            <Badge variant="outline" size="sm" color="teal" style={{ flexShrink: 0 }}>
              {family.licenseLabel}
            </Badge>
            <Anchor
              href={`#/licences/${family.licenseKind}/${String(seat.license_id)}`}
              size="sm"
              style={{ minWidth: 0, overflowWrap: 'anywhere' }}
            >
              {text(seat.license_name) ?? `${family.licenseLabel} ${String(seat.license_id)}`}
            </Anchor>
            <LicenceTarget
              profileId={profileId}
              kind={family.licenseKind as ResourceKind}
              licenseId={Number(seat.license_id)}
              inline
            />
            {seat.active === false && (
              <Badge variant="light" color="gray" size="sm">
                Inactive
              </Badge>
            )}
          </Group>
        ))}
      </Stack>
    </Section>
  );
}

function Invitations({ profileId, email }: { profileId: string; email: string | null }) {
  const list = useCall(
    'invitations.list',
    { profileId, target: { kind: 'platform' }, email: email ?? '', pageSize: 10 },
    { enabled: !!email },
  );
  const rows = list.data?.invitations ?? [];
  return (
    <Section
      title="Invitations"
      testId="person-invitations"
      loading={!!email && list.isPending}
      error={list.error}
      onRetry={() => void list.refetch()}
      freshness={list.data?.freshness}
      empty={!email ? 'No email: invitations go by email.' : rows.length ? null : 'No invitation to the platform.'}
    >
      <List size="sm" spacing={2}>
        {rows.map((invitation) => (
          <List.Item key={invitation.id}>
            {asWords(invitation.state)}
            {invitation.createdAt && ` · sent ${formatDate(invitation.createdAt)}`}
            {invitation.source && ` · ${invitation.source}`}
          </List.Item>
        ))}
      </List>
    </Section>
  );
}

function Tickets({ profileId, username }: { profileId: string; username: string }) {
  const list = useCall('tickets.list', { profileId, view: 'all', filter: { requester: username }, limit: 10 });
  // The ticket index's state as its sync events keep it (the list's own copy is as of the list's answer).
  const status = useCall('tickets.status', { profileId });
  const sync = status.data ?? list.data?.sync;
  const rows = list.data?.rows ?? [];
  return (
    <Section
      title="Support tickets"
      testId="person-tickets"
      // Before the index's first sync has finished, no row says nothing yet.
      loading={list.isPending || (sync?.asOf === null && sync.state === 'syncing')}
      error={list.error}
      onRetry={() => void list.refetch()}
      freshness={ticketFreshness(sync)}
      empty={rows.length ? null : 'No ticket from this person.'}
    >
      <Table fz="sm" verticalSpacing={4}>
        <Table.Tbody>
          {rows.map((ticket) => (
            <Table.Tr key={ticket.id}>
              <Table.Td>
                <Anchor href={`#/tickets/${ticket.id}`} size="sm">
                  #{ticket.id} {ticket.subject}
                </Anchor>
              </Table.Td>
              <Table.Td>
                <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                  {asWords(ticket.status)}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {list.data && list.data.total > rows.length && (
        <Text size="xs" c="dimmed">
          The latest {rows.length} of {list.data.total}.
        </Text>
      )}
    </Section>
  );
}

/** The learner's recent sessions; each opens in the session view (messages, pin, export, trace). */
function Chats({ profileId, username }: { profileId: string; username: string }) {
  const list = useCall('analytics.conversations', {
    profileId,
    range: { preset: '90d' },
    learner: username,
    pageSize: 10,
  });
  const [open, setOpen] = useState<OpenSession | null>(null);
  const rows = list.data?.rows ?? [];
  return (
    <Section
      title="Recent chats (90 days)"
      testId="person-chats"
      loading={list.isPending}
      error={list.error}
      onRetry={() => void list.refetch()}
      freshness={list.data?.freshness}
      empty={rows.length ? null : 'No chat with a mentor in the last 90 days.'}
    >
      <List size="sm" spacing={2}>
        {rows.map((row) => (
          <List.Item key={row.id}>
            <Anchor
              component="button"
              type="button"
              size="sm"
              ta="left"
              onClick={() => setOpen({ learner: username, session: row.id })}
              aria-label={`Open the session of ${formatDateTime(row.startedAt)} with ${row.mentor}`}
            >
              {formatDateTime(row.startedAt)} · {row.mentor}
            </Anchor>{' '}
            ·{' '}
            <span style={{ whiteSpace: 'nowrap' }}>
              {row.messages} {row.messages === 1 ? 'message' : 'messages'}
            </span>
            {row.rating === -1 && (
              <Badge ml={6} size="xs" color="red" variant="light">
                Rated −1
              </Badge>
            )}
          </List.Item>
        ))}
      </List>
      {list.data && list.data.count > rows.length && (
        <Text size="xs" c="dimmed">
          The latest {rows.length} of {list.data.count}.
        </Text>
      )}
      <SessionModal profileId={profileId} open={open} onClose={() => setOpen(null)} />
    </Section>
  );
}

/** The freshness of a section made of several answers: a saved copy if any of them is one. */
const savedCopyOf = (...answers: (Freshness | undefined)[]) =>
  answers.find((answer) => answer?.offline) ?? answers.find((answer) => answer?.source === 'cache') ?? answers[0];

/** The ticket index's state as a list's freshness: tickets saved on this computer, its last sync's failure if any. */
function ticketFreshness(sync: TicketSyncState | undefined): Freshness | undefined {
  if (!sync) return undefined;
  const failed = sync.state === 'offline' || sync.state === 'error';
  return {
    asOf: sync.asOf,
    source: 'cache',
    offline: failed ? (sync.message ?? 'The tenant cannot be reached.') : null,
  };
}

const asWords = (value: string) => value.replaceAll('_', ' ').replace(/^./, (c) => c.toUpperCase());

/** The removal, asked for with the person's username or email typed out. */
function RemoveModal({
  profileId,
  remove,
  opened,
  person,
  onClose,
  onRemoved,
}: {
  profileId: string;
  remove: ReturnType<typeof useMutationCall<'people.remove'>>;
  opened: boolean;
  person: ResourceRecord;
  onClose(): void;
  onRemoved(report: UserRemoval): void;
}) {
  const username = String(person.username);
  const email = text(person.email);
  return (
    <TypedConfirmModal
      opened={opened}
      title={`Remove ${text(person.name) ?? username} from the tenant`}
      names={email ? [username, email] : [username]}
      accepts={(typed) => typed === username || (!!email && typed.toLowerCase() === email.toLowerCase())}
      mutation={remove}
      confirmLabel="Remove"
      onConfirm={(typed) =>
        // The answer is taken from the call's promise, which settles even when the dialog has gone; a failure is
        // shown by the dialog from the mutation's state.
        remove.mutateAsync({ profileId, id: String(person.user_id), confirm: typed }).then(onRemoved, () => undefined)
      }
      onClose={onClose}
    >
      <Text size="sm">
        They lose their access to this tenant, and leave their department, user groups and policies. Their tickets and
        chats stay.
      </Text>
    </TypedConfirmModal>
  );
}

/** What went with a removed person, in place of their page. */
function RemovalReport({ report, onBack }: { report: UserRemoval; onBack(): void }) {
  const lines = [
    ...report.departments.map((name) => `Department ${name}`),
    ...report.groups.map((name) => `User group ${name}`),
    ...report.policies.map((name) => `Policy ${name}`),
  ];
  return (
    <Paper withBorder radius="md" p="lg" maw={640} data-testid="removal-report">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {report.username} was removed from the tenant
        </Title>
        <Text size="sm" c="dimmed">
          The platform: “{report.message}”
        </Text>
        <Text size="sm" fw={500}>
          {lines.length ? 'Memberships that went with them:' : 'They were in no department, user group or policy.'}
        </Text>
        {lines.length > 0 && (
          <List size="sm" spacing={2}>
            {lines.map((line) => (
              <List.Item key={line}>{line}</List.Item>
            ))}
          </List>
        )}
        <Group>
          <Button onClick={onBack}>Back to users</Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/**
 * Puts the person into a department or a user group picked by name, by the kit's create of the membership kind (as a
 * department's own Add member does). A person is in one department: joining another moves them.
 */
function JoinGroup({
  profileId,
  username,
  name,
  kind,
  refusal,
}: {
  profileId: string;
  username: string;
  name: string;
  kind: 'department-members' | 'user-group-members';
  refusal: string | null;
}) {
  const membership = RESOURCES[kind].membership;
  const [picked, setPicked] = useState<unknown>(null);
  const join = useMutationCall('resources.create');
  const word = membership.groupLabel.toLowerCase();
  return (
    <Group gap="xs" wrap="nowrap" align="flex-end">
      <RecordPicker
        profileId={profileId}
        kind={membership.groupKind}
        aria-label={`${membership.groupLabel} to add ${name} to`}
        placeholder={`Add to a ${word}…`}
        size="xs"
        value={picked}
        onChange={setPicked}
        style={{ flex: '1 1 auto', minWidth: 0 }}
        comboboxProps={{ withinPortal: true }}
      />
      <WriteButton
        size="xs"
        variant="default"
        aria-label={`Add to ${word}`}
        style={{ flexShrink: 0 }}
        refusal={refusal}
        loading={join.isPending}
        disabled={(picked === null || picked === '') && !refusal}
        onClick={() =>
          join.mutate(
            { profileId, kind, values: { [membership.groupField]: picked, username } },
            {
              onSuccess: ({ record }) => {
                setPicked(null);
                notifySuccess(
                  'Added',
                  `${name} is now in ${String(record.department_name ?? record.group_name ?? `the ${word}`)}`,
                );
              },
              onError: (error) => notifyError(`Not added to the ${word}`, error),
            },
          )
        }
      >
        Add
      </WriteButton>
    </Group>
  );
}
