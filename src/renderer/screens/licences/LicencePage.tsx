import {
  Alert,
  Anchor,
  Badge,
  Button,
  Checkbox,
  Group,
  Progress,
  Select,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useMemo, useState } from 'react';
import { RESOURCES, type ResourceDeclaration, type ResourceKind, type SeatKind } from '../../../shared/resources';
import type { LicenceSeats } from '../../../shared/contract';
import { errorMessage } from '../../bridge/errors';
import { ConfirmModal } from '../../components/ConfirmModal';
import { FreshnessNote, OfflineBanner } from '../../components/FreshnessBar';
import { WarningIcon } from '../../components/icons';
import { LoadErrorAlert } from '../../components/LoadErrorAlert';
import { isUnreachable } from '../../components/nextStep';
import { notifySuccess } from '../../components/notify';
import { formatCount, formatDateTime } from '../../lib/format';
import { useCall, useMutationCall } from '../../queries/useCall';
import { ResourceFormModal } from '../../resources/ResourceFormModal';
import { ResourceImportModal } from '../../resources/ResourceImportModal';
import { GiveSeat } from './GiveSeat';
import { LicenceTarget } from '../../components/LicenceTarget';
import { useWriteRefusal, WriteButton } from '../../resources/writeGate';

type Seat = LicenceSeats['seats'][number];
type GroupSeat = LicenceSeats['groups'][number];

interface PageProps {
  profileId: string;
  id: string;
  onBack(): void;
}

/** A user licence's page (`#/licences/licenses/<id>`). */
export function LicencePage(props: PageProps) {
  return <SeatsPage {...props} kind="license-assignments" />;
}
/** A course licence's page (`#/licences/course-licenses/<id>`). */
export function CourseLicencePage(props: PageProps) {
  return <SeatsPage {...props} kind="course-license-assignments" />;
}
/** A program licence's page (`#/licences/program-licenses/<id>`). */
export function ProgramLicencePage(props: PageProps) {
  return <SeatsPage {...props} kind="program-license-assignments" />;
}

/**
 * One licence: its seats used and free, its expiry flagged when near or past, the people and user groups holding
 * seats, seats given from a CSV file (a job) or to a whole user group, and taken back. With the tenant out of reach it
 * shows the copy saved when it was last read, said so, with every change off and the reason on each.
 */
function SeatsPage({ profileId, id, onBack, kind }: PageProps & { kind: SeatKind }) {
  const licenseId = Number(id);
  const seatKind = { ...RESOURCES[kind], kind: kind as ResourceKind };
  const seats = useCall('licences.seats', { profileId, licenseId, kind }, { enabled: Number.isInteger(licenseId) });
  const refusal = useWriteRefusal(seats.data?.freshness);
  const groups = useCall('resources.list', { profileId, kind: 'user-groups', pageSize: 500 });
  // Groups holding the licence already are not offered again. Kept while neither list changes: a new list on every
  // render (the page's freshness, the tenant's reach) would reset the picker's highlighted option under the keyboard.
  const groupOptions = useMemo(() => {
    const held = new Set((seats.data?.groups ?? []).map((g) => g.groupId));
    return (groups.data?.records ?? [])
      .filter((g) => !held.has(Number(g.id)))
      .map((g) => ({ value: String(g.id), label: String(g.name) }));
  }, [seats.data, groups.data]);
  const release = useMutationCall('licences.release');
  const releaseGroup = useMutationCall('licences.releaseGroup');
  const assignGroup = useMutationCall('licences.assignGroup');
  const [releasing, setReleasing] = useState<Seat | null>(null);
  const [removing, setRemoving] = useState<GroupSeat | null>(null);
  /** The removal keeps the seats the group gave its people (where the platform allows it). */
  const [keepSeats, setKeepSeats] = useState(false);
  const [group, setGroup] = useState<string | null>(null);
  const [importing, setImporting] = useState(false);
  // The licence itself, for the kit's edit form (its end date, seats, name): read when the form is opened.
  const licenceKind = seatKind.seats.licenseKind as ResourceKind;
  const [editing, setEditing] = useState(false);
  const licenceRecord = useCall(
    'resources.get',
    { profileId, kind: licenceKind, id: String(licenseId) },
    { enabled: editing },
  );

  const back = (
    <Button variant="subtle" size="compact-sm" onClick={onBack} w="fit-content">
      ← All {(RESOURCES[seatKind.seats.licenseKind as ResourceKind] as ResourceDeclaration).plural}
    </Button>
  );
  if (seats.isError && !seats.data) {
    return (
      <Stack gap="md">
        {back}
        <LoadErrorAlert
          // Never read on this computer: nothing saved to show in its place.
          title={
            isUnreachable(seats.error)
              ? 'This licence is not available while the tenant cannot be reached'
              : 'The licence could not be read'
          }
          error={seats.error}
          onRetry={() => void seats.refetch()}
        />
      </Stack>
    );
  }
  if (!seats.data) {
    return (
      <Stack gap="md">
        {back}
        <Skeleton height={120} />
      </Stack>
    );
  }
  const { licence } = seats.data;
  // Only the program family's answer counts a group's people and those holding seats.
  const counted = seats.data.groups.some((g) => g.people !== null);
  const share = licence.count ? Math.min(100, (licence.used / licence.count) * 100) : 100;

  return (
    <Stack gap="lg">
      {back}
      <Stack gap={6}>
        <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
          <Group gap="sm" wrap="wrap" style={{ minWidth: 0 }}>
            <Title order={2} size="h3" style={{ overflowWrap: 'anywhere' }}>
              {licence.name || `Licence ${licence.id}`}
            </Title>
            {!licence.active && <Badge color="gray">Inactive</Badge>}
            {licence.expiry === 'past' && <Badge color="red">Expired</Badge>}
            {licence.expiry === 'soon' && <Badge color="orange">Ends soon</Badge>}
          </Group>
          <FreshnessNote
            freshness={seats.data.freshness}
            refreshing={seats.isFetching}
            onRefresh={() => void seats.refetch()}
            what="this licence"
          />
        </Group>
        <Text size="sm" c="dimmed">
          From {formatDateTime(licence.started)} ·{' '}
          {licence.expired ? `until ${formatDateTime(licence.expired)}` : 'no end date'}
        </Text>
        <LicenceTarget profileId={profileId} kind={licenceKind} licenseId={licenseId} of={licence.of} />
      </Stack>
      <OfflineBanner freshness={seats.data.freshness} />
      {licence.expiry !== 'ok' && licence.expiry !== 'none' && (
        <Alert
          color={licence.expiry === 'past' ? 'red' : 'orange'}
          icon={<WarningIcon />}
          data-testid="expiry-warning"
          title={licence.expiry === 'past' ? 'This licence has expired' : 'This licence ends soon'}
        >
          {licence.expiry === 'past'
            ? `It ended on ${formatDateTime(licence.expired)}: its seats may no longer give access.`
            : `It ends on ${formatDateTime(licence.expired)}. Extend it (Edit licence, then its Expires date) to keep its seats.`}
        </Alert>
      )}
      <Stack gap={6} maw={560} data-testid="seat-meter">
        <Group justify="space-between">
          <Text size="sm" fw={500}>
            {formatCount(licence.used)} of {formatCount(licence.count)} seats used
          </Text>
          <Text size="sm" c={licence.over ? 'orange' : 'dimmed'}>
            {licence.over ? `${formatCount(licence.over)} past its seats` : `${formatCount(licence.free)} free`}
          </Text>
        </Group>
        <Progress
          value={share}
          color={licence.over ? 'orange' : share >= 90 ? 'yellow' : 'teal'}
          aria-label="Seats used"
        />
      </Stack>

      <Group gap="sm" wrap="wrap">
        <WriteButton refusal={refusal} onClick={() => setImporting(true)}>
          Give seats from a CSV file
        </WriteButton>
        <WriteButton
          refusal={refusal}
          variant="default"
          onClick={() => setEditing(true)}
          loading={editing && licenceRecord.isPending}
        >
          Edit licence
        </WriteButton>
      </Group>

      <Stack gap={4}>
        <Text fw={500}>User groups holding seats ({formatCount(seats.data.groups.length)})</Text>
        <Group gap="sm" wrap="wrap" mb={4}>
          <Select
            aria-label="User group"
            placeholder="A user group"
            data={groupOptions}
            value={group}
            onChange={(value) => {
              setGroup(value);
              assignGroup.reset();
            }}
            searchable
            disabled={!!refusal}
            nothingFoundMessage={groups.isError ? 'The user groups could not be read' : 'No such user group'}
            w={220}
          />
          <WriteButton
            refusal={refusal}
            variant="default"
            disabled={!group}
            loading={assignGroup.isPending}
            onClick={() =>
              assignGroup.mutate(
                { profileId, licenseId, groupId: Number(group), kind },
                {
                  onSuccess: (answer) => {
                    notifySuccess('Seats given', `Everyone in ${answer.name} holds a seat`);
                    setGroup(null);
                    void seats.refetch();
                  },
                },
              )
            }
          >
            Give the group seats
          </WriteButton>
        </Group>
        {assignGroup.isError && (
          <Alert color="red" icon={<WarningIcon />} title="No seats given">
            {errorMessage(assignGroup.error)}
          </Alert>
        )}
        {seats.data.groups.length ? (
          <Table striped aria-label="User groups holding seats">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>User group</Table.Th>
                {counted && <Table.Th>People</Table.Th>}
                <Table.Th w={120} />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {seats.data.groups.map((g) => (
                <Table.Tr key={g.id}>
                  <Table.Td>
                    {g.name}
                    {!g.active && (
                      <Badge ml="xs" color="gray" size="sm">
                        Inactive
                      </Badge>
                    )}
                  </Table.Td>
                  {counted && (
                    <Table.Td>
                      {g.people === null
                        ? '—'
                        : `${formatCount(g.holding ?? 0)} of ${formatCount(g.people)} hold a seat`}
                    </Table.Td>
                  )}
                  <Table.Td>
                    <WriteButton
                      refusal={refusal}
                      size="compact-sm"
                      variant="subtle"
                      color="red"
                      aria-label={`Take back from ${g.name}`}
                      onClick={() => {
                        setKeepSeats(false);
                        setRemoving(g);
                      }}
                    >
                      Take back
                    </WriteButton>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        ) : (
          <Text size="sm" c="dimmed">
            No user group holds this licence. Pick one above to give everyone in it a seat.
          </Text>
        )}
      </Stack>

      <Stack gap={4}>
        <Text fw={500}>People holding seats ({formatCount(seats.data.seats.length)})</Text>
        <GiveSeat profileId={profileId} licenseId={licenseId} kind={kind} onGiven={() => void seats.refetch()} />
        {seats.data.seats.length ? (
          <Table striped aria-label="People holding seats">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Username</Table.Th>
                <Table.Th>Email</Table.Th>
                <Table.Th w={120} />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {seats.data.seats.map((seat) => (
                <Table.Tr key={seat.id}>
                  <Table.Td>
                    {seat.username && seat.userId !== null ? (
                      // The holder's page, with their other seats, departments and groups.
                      <Anchor href={`#/people-and-access/users/${seat.userId}`} size="sm">
                        {seat.username}
                      </Anchor>
                    ) : (
                      (seat.username ?? (
                        <Text span size="sm" c="dimmed">
                          No account yet
                        </Text>
                      ))
                    )}
                  </Table.Td>
                  <Table.Td style={{ wordBreak: 'break-all' }}>{seat.email ?? '—'}</Table.Td>
                  <Table.Td>
                    <WriteButton
                      refusal={refusal}
                      size="compact-sm"
                      variant="subtle"
                      color="red"
                      onClick={() => setReleasing(seat)}
                    >
                      Release
                    </WriteButton>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        ) : (
          <Text size="sm" c="dimmed">
            No one holds a seat yet.
          </Text>
        )}
      </Stack>

      <ConfirmModal
        target={releasing}
        title="Release this seat?"
        mutation={release}
        failedTitle="Not released"
        confirmLabel="Release"
        onClose={() => setReleasing(null)}
        onConfirm={(seat, close) =>
          release.mutate(
            { profileId, licenseId, assignmentId: seat.id, kind },
            {
              onSuccess: () => {
                close();
                void seats.refetch();
              },
            },
          )
        }
      >
        {(seat) => (
          <Text size="sm">
            {seat.username ?? seat.email} gives back their seat of {licence.name || `licence ${licence.id}`}; it is free
            for someone else.
          </Text>
        )}
      </ConfirmModal>
      <ConfirmModal
        target={removing}
        title="Take the group's seats back?"
        mutation={releaseGroup}
        failedTitle="Not taken back"
        confirmLabel="Take back"
        onClose={() => setRemoving(null)}
        onConfirm={(g, close) =>
          releaseGroup.mutate(
            { profileId, licenseId, assignmentId: g.id, kind, ...(keepSeats && { keepSeats: true }) },
            {
              onSuccess: () => {
                close();
                void seats.refetch();
              },
            },
          )
        }
      >
        {(g) => (
          <Stack gap="sm">
            <Text size="sm">
              {g.name} stops holding {licence.name || `licence ${licence.id}`}.{' '}
              {keepSeats
                ? 'Its people keep the seats the group gave them, as seats of their own.'
                : 'The seats the group gave its people go with it (the platform removes them by default).'}
            </Text>
            {seats.data.canKeepGroupSeats && (
              <Checkbox
                label="Keep the seats the group gave its people"
                description="The platform's remove_user_assignments, sent as false"
                checked={keepSeats}
                onChange={(event) => setKeepSeats(event.currentTarget.checked)}
              />
            )}
          </Stack>
        )}
      </ConfirmModal>
      {editing && licenceRecord.isError && (
        <Alert color="red" icon={<WarningIcon />} title="The licence could not be read for editing">
          {errorMessage(licenceRecord.error)}
        </Alert>
      )}
      <ResourceFormModal
        profileId={profileId}
        declaration={{ ...RESOURCES[licenceKind], kind: licenceKind }}
        target={editing && licenceRecord.data ? { mode: 'update', record: licenceRecord.data.record } : null}
        onClose={() => {
          setEditing(false);
          void seats.refetch();
        }}
        onCreated={() => undefined}
      />
      <ResourceImportModal
        profileId={profileId}
        declaration={seatKind}
        opened={importing}
        onClose={() => {
          setImporting(false);
          void seats.refetch();
        }}
        license={{ id: licence.id, name: licence.name || `licence ${licence.id}` }}
      />
    </Stack>
  );
}
