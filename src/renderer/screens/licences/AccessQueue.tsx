import { Alert, Anchor, Badge, Button, Group, Kbd, Modal, Paper, Stack, Table, Tabs, Text, Title } from '@mantine/core';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { ResourceRecord } from '../../../shared/contract';
import { errorMessage } from '../../bridge/errors';
import { FreshnessNote, OfflineBanner } from '../../components/FreshnessBar';
import { WarningIcon } from '../../components/icons';
import { LoadErrorAlert } from '../../components/LoadErrorAlert';
import { notifySuccess } from '../../components/notify';
import { formatDateTime, formatRelative } from '../../lib/format';
import { useCall, useMutationCall } from '../../queries/useCall';
import { useResourceList } from '../../resources/useResourceList';
import { useWriteRefusal, WriteButton } from '../../resources/writeGate';

const KEYS: readonly [string, string][] = [
  ['a', 'Approve the request shown'],
  ['d', 'Deny it (asks first; a denial cannot be undone)'],
  ['j', 'Next request'],
  ['k', 'Previous request'],
  ['?', 'These keys'],
];

/** Typing in a field, or a dialog open: the queue's keys are not the queue's then. */
function typing(event: React.KeyboardEvent): boolean {
  const target = event.target as HTMLElement | null;
  if (!target) return false;
  return (
    ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName) ||
    target.isContentEditable ||
    !!target.closest('[role="dialog"]')
  );
}

/**
 * The catalogue's course names by course id (its first 500 courses, from the catalogue's cache): a request names its
 * course by name, its id on hover; a course the catalogue does not list keeps its id.
 */
function useCourseNames(profileId: string): (courseId: unknown) => { name: string; id: string } {
  const courses = useCall('resources.list', { profileId, kind: 'courses', pageSize: 500 });
  const names = useMemo(
    () =>
      new Map(
        (courses.data?.records ?? [])
          .filter((course) => typeof course.name === 'string' && course.name.trim())
          .map((course) => [String(course.course_id), String(course.name)]),
      ),
    [courses.data],
  );
  return (courseId) => ({ id: String(courseId), name: names.get(String(courseId)) ?? String(courseId) });
}

const who = (request: ResourceRecord) => String(request.name || request.username || `User ${String(request.user_id)}`);

/** The requester's person page (the route the people screens and licence seat holders use). */
const personHref = (request: ResourceRecord) => `#/people-and-access/users/${String(request.user_id)}`;

/** The requester by name, a link to their person page (their username on hover). */
function Requester({ request, size = 'sm', ...props }: { request: ResourceRecord; size?: string; fw?: number }) {
  return (
    <Anchor
      href={personHref(request)}
      size={size}
      title={request.username ? String(request.username) : undefined}
      data-testid="requester"
      // In a row that picks the request on click: the link opens the person, it does not pick.
      onClick={(event) => event.stopPropagation()}
      style={{ overflowWrap: 'anywhere' }}
      {...props}
    >
      {who(request)}
    </Anchor>
  );
}

/**
 * Requests already reviewed, newest decision first, as the platform lists them (`reviewed=true`): who asked, for
 * which course, approved or denied, and when (the request's last change). The platform does not say who decided.
 */
function History({ profileId, course }: { profileId: string; course: ReturnType<typeof useCourseNames> }) {
  const {
    list: reviewed,
    refresh,
    refreshing,
  } = useResourceList(profileId, { kind: 'access-requests', where: { reviewed: 'true' }, pageSize: 500 });
  // Read from the tenant when opened: decisions made a moment ago, here or elsewhere, are in it.
  const refreshOnOpen = useRef(refresh);
  useEffect(() => void refreshOnOpen.current(), []);
  const rows = useMemo(
    () =>
      [...(reviewed.data?.records ?? [])].sort((a, b) =>
        String(b.modified ?? b.created).localeCompare(String(a.modified ?? a.created)),
      ),
    [reviewed.data],
  );
  if (reviewed.isError && !reviewed.data) {
    return (
      <LoadErrorAlert
        title="Reviewed requests could not be loaded"
        error={reviewed.error}
        onRetry={() => void reviewed.refetch()}
      />
    );
  }
  return (
    <Stack gap="xs" data-testid="access-history">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Text size="sm" c="dimmed">
          Approved and denied requests, the latest decision first. The platform records when each was decided, not who
          decided it.
        </Text>
        <FreshnessNote
          freshness={reviewed.data?.freshness}
          refreshing={refreshing}
          onRefresh={() => void refresh()}
          what="reviewed requests"
        />
      </Group>
      {!reviewed.data ? null : rows.length ? (
        <Table.ScrollContainer minWidth={560}>
          <Table aria-label="Reviewed requests">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Who</Table.Th>
                <Table.Th>Course</Table.Th>
                <Table.Th>Decision</Table.Th>
                <Table.Th>Decided</Table.Th>
                <Table.Th>Asked</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((request) => (
                <Table.Tr key={String(request.id)}>
                  <Table.Td>
                    <Requester request={request} />
                  </Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }} title={course(request.course_id).id}>
                    {course(request.course_id).name}
                  </Table.Td>
                  <Table.Td w={1}>
                    <Badge
                      size="sm"
                      variant="light"
                      style={{ minWidth: 'max-content' }}
                      color={request.approved ? 'teal' : 'gray'}
                    >
                      {request.approved ? 'Approved' : 'Denied'}
                    </Badge>
                  </Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>
                    {request.modified ? formatDateTime(String(request.modified)) : '—'}
                  </Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatRelative(String(request.created))}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : (
        <Text size="sm" c="dimmed">
          No request has been reviewed yet.
        </Text>
      )}
    </Stack>
  );
}

/**
 * The access-request queue (`#/licences/access-requests`): the open requests newest first, one shown with its
 * requester's context (who, which course, when, their other requests), approved with `a`, denied with `d`, moved
 * through with `j`/`k`. A request someone else reviewed meanwhile is said so, and the queue is read again.
 */
export function AccessQueue({ profileId }: { profileId: string }) {
  const {
    list: open,
    refresh,
    refreshing,
  } = useResourceList(profileId, { kind: 'access-requests', where: { reviewed: 'false' }, pageSize: 500 });
  // Out of reach (this list's saved copy, or the engine's reach state for the tenant), the saved queue is shown but
  // nothing can be reviewed until the tenant answers: the buttons say why, and so do the keys.
  const refusal = useWriteRefusal(open.data?.freshness);
  const [keyRefused, setKeyRefused] = useState(false);
  // Reachable again: the key's refusal is old news (set while rendering, React's way to follow a changed input).
  if (keyRefused && !refusal) setKeyRefused(false);
  const all = useCall('resources.list', { profileId, kind: 'access-requests', pageSize: 500 });
  const review = useMutationCall('accessRequests.review');
  const course = useCourseNames(profileId);
  const [done, setDone] = useState<ReadonlySet<number>>(new Set());
  const [index, setIndex] = useState(0);
  const [handled, setHandled] = useState<string | null>(null);
  const [help, setHelp] = useState(false);
  const [confirmDeny, setConfirmDeny] = useState(false);
  const [view, setView] = useState<'waiting' | 'history'>('waiting');
  const panel = useRef<HTMLDivElement>(null);

  const queue = useMemo(
    () => (open.data?.records ?? []).filter((request) => !done.has(Number(request.id))),
    [open.data, done],
  );
  const at = Math.min(index, Math.max(0, queue.length - 1));
  const current = queue[at];
  const others = useMemo(
    () =>
      current
        ? (all.data?.records ?? []).filter(
            (request) => request.user_id === current.user_id && request.id !== current.id,
          )
        : [],
    [all.data, current],
  );

  const decide = (approved: boolean) => {
    if (!current || review.isPending) return;
    if (refusal) return setKeyRefused(true);
    const id = Number(current.id);
    setHandled(null);
    review.mutate(
      { profileId, id, approved },
      {
        onSuccess: (answer) => {
          setDone((before) => new Set([...before, id]));
          if (answer.outcome === 'handled') setHandled(answer.message);
          else
            notifySuccess(
              answer.approved ? 'Approved' : 'Denied',
              `${who(current)} · ${course(current.course_id).name}`,
            );
          void open.refetch();
          void all.refetch();
        },
      },
    );
  };

  // Focus starts in the queue, so its keys work at once and only there.
  useEffect(() => {
    if (!panel.current?.contains(document.activeElement)) panel.current?.focus();
  }, []);

  const askDeny = () => {
    if (!current || review.isPending) return;
    if (refusal) setKeyRefused(true);
    else setConfirmDeny(true);
  };

  const onKeyDown = (event: React.KeyboardEvent) => {
    if (event.defaultPrevented || event.metaKey || event.ctrlKey || event.altKey || typing(event)) return;
    // The history has nothing to approve or move through: the queue's keys are the queue's.
    if (view !== 'waiting') return;
    const key = event.key;
    if (key === '?') setHelp(true);
    else if (key === 'j') setIndex(Math.min(at + 1, Math.max(0, queue.length - 1)));
    else if (key === 'k') setIndex(Math.max(0, at - 1));
    else if (key === 'a') decide(true);
    else if (key === 'd') askDeny();
    else return;
    event.preventDefault();
  };

  return (
    <Stack
      gap="md"
      ref={panel}
      tabIndex={-1}
      role="region"
      aria-label="Access request queue"
      onKeyDown={onKeyDown}
      style={{ outline: 'none' }}
      data-testid="access-queue"
    >
      <Group justify="space-between" wrap="wrap" gap="xs">
        <div>
          <Title order={2} size="h4">
            Access requests
          </Title>
          <Text size="sm" c="dimmed">
            {!open.data
              ? ''
              : queue.length
                ? `${queue.length} waiting · ${at + 1} of ${queue.length}`
                : 'No one is waiting'}
          </Text>
        </div>
        <Group gap={6} wrap="nowrap">
          <FreshnessNote
            freshness={open.data?.freshness}
            refreshing={refreshing}
            onRefresh={() => void refresh()}
            what="access requests"
          />
          <Text size="xs" c="dimmed">
            Keys:
          </Text>
          <Kbd size="xs">a</Kbd>
          <Kbd size="xs">d</Kbd>
          <Kbd size="xs">j</Kbd>
          <Kbd size="xs">k</Kbd>
          <Button size="compact-xs" variant="subtle" onClick={() => setHelp(true)} aria-label="Keyboard keys">
            ?
          </Button>
        </Group>
      </Group>
      <Tabs value={view} onChange={(value) => setView(value === 'history' ? 'history' : 'waiting')}>
        <Tabs.List>
          <Tabs.Tab value="waiting">Waiting</Tabs.Tab>
          <Tabs.Tab value="history">History</Tabs.Tab>
        </Tabs.List>
      </Tabs>
      {view === 'history' ? (
        <History profileId={profileId} course={course} />
      ) : (
        <>
          {handled && (
            <Alert color="yellow" icon={<WarningIcon />} title="Already handled" data-testid="already-handled">
              {handled}
            </Alert>
          )}
          {keyRefused && refusal && (
            <Alert
              color="yellow"
              icon={<WarningIcon />}
              title="Not reviewed"
              role="status"
              data-testid="review-refused"
            >
              {refusal}
            </Alert>
          )}
          {review.isError && (
            <Alert color="red" icon={<WarningIcon />} title="Not reviewed">
              {errorMessage(review.error)}
            </Alert>
          )}
          <OfflineBanner freshness={open.data?.freshness} />
          {open.isError && !open.data && (
            <LoadErrorAlert
              title="Access requests could not be loaded"
              error={open.error}
              onRetry={() => void open.refetch()}
            />
          )}
          {current ? (
            <Group align="flex-start" gap="md" wrap="wrap">
              <Paper withBorder p="md" radius="md" style={{ flex: '2 1 320px' }} data-testid="access-request">
                <Stack gap="xs">
                  <Requester request={current} size="lg" fw={600} />
                  <Text size="sm" c="dimmed" title={`User ID ${String(current.user_id)}`}>
                    {String(current.username)}
                  </Text>
                  <Text size="sm">
                    asks for{' '}
                    <strong title={course(current.course_id).id} data-testid="requested-course">
                      {course(current.course_id).name}
                    </strong>
                  </Text>
                  <Text size="sm" c="dimmed">
                    {formatDateTime(String(current.created))} ({formatRelative(String(current.created))})
                  </Text>
                  <Group gap="sm" mt="sm">
                    <WriteButton refusal={refusal} color="teal" onClick={() => decide(true)} loading={review.isPending}>
                      Approve <Kbd ml={6}>a</Kbd>
                    </WriteButton>
                    <WriteButton refusal={refusal} variant="default" onClick={askDeny} disabled={review.isPending}>
                      Deny <Kbd ml={6}>d</Kbd>
                    </WriteButton>
                  </Group>
                </Stack>
              </Paper>
              <Paper withBorder p="md" radius="md" style={{ flex: '1 1 260px' }} miw={0}>
                <Text fw={500} size="sm" mb="xs">
                  Their other requests
                </Text>
                {others.length ? (
                  <Table aria-label="Their other requests">
                    <Table.Tbody>
                      {others.map((request) => (
                        <Table.Tr key={String(request.id)}>
                          <Table.Td>
                            <Text size="sm" style={{ overflowWrap: 'anywhere' }} title={course(request.course_id).id}>
                              {course(request.course_id).name}
                            </Text>
                          </Table.Td>
                          <Table.Td w={1}>
                            <Badge
                              size="sm"
                              variant="light"
                              // The status is the point of the row: the badge never gives way to the course name.
                              style={{ minWidth: 'max-content' }}
                              color={!request.reviewed ? 'blue' : request.approved ? 'teal' : 'gray'}
                            >
                              {!request.reviewed ? 'Waiting' : request.approved ? 'Approved' : 'Denied'}
                            </Badge>
                          </Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                ) : (
                  <Text size="sm" c="dimmed">
                    None
                  </Text>
                )}
              </Paper>
            </Group>
          ) : (
            open.data && (
              <Text c="dimmed" size="sm">
                Every request has been reviewed.
              </Text>
            )
          )}
          {queue.length > 1 && (
            <Table highlightOnHover aria-label="Waiting requests">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Who</Table.Th>
                  <Table.Th>Course</Table.Th>
                  <Table.Th>Asked</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {queue.map((request, i) => (
                  <Table.Tr
                    key={String(request.id)}
                    onClick={() => setIndex(i)}
                    bg={i === at ? 'var(--mantine-color-default-hover)' : undefined}
                    aria-current={i === at ? 'true' : undefined}
                    style={{ cursor: 'pointer' }}
                  >
                    <Table.Td>
                      <Requester request={request} />
                    </Table.Td>
                    <Table.Td style={{ overflowWrap: 'anywhere' }} title={course(request.course_id).id}>
                      {course(request.course_id).name}
                    </Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatRelative(String(request.created))}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </>
      )}
      <Modal
        opened={confirmDeny && !!current}
        onClose={() => setConfirmDeny(false)}
        title="Deny this request?"
        centered
      >
        {current && (
          <Text size="sm" mb="md">
            {who(current)} will not get {course(current.course_id).name}. A denial cannot be undone from this app.
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" data-autofocus onClick={() => setConfirmDeny(false)}>
            Cancel
          </Button>
          <Button
            color="red"
            onClick={() => {
              setConfirmDeny(false);
              decide(false);
            }}
          >
            Deny
          </Button>
        </Group>
      </Modal>
      <Modal opened={help} onClose={() => setHelp(false)} title="Keys of the queue" centered>
        <Table>
          <Table.Tbody>
            {KEYS.map(([key, words]) => (
              <Table.Tr key={key}>
                <Table.Td w={60}>
                  <Kbd>{key}</Kbd>
                </Table.Td>
                <Table.Td>{words}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Modal>
    </Stack>
  );
}
