import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Checkbox,
  Group,
  List,
  Modal,
  Paper,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { actionLabel, GUARDED_RESOURCES } from '../../../shared/access';
import type { AccessMatrix as Matrix } from '../../../shared/contract';
import { useBridge } from '../../bridge/BridgeContext';
import { OfflineBanner } from '../../components/FreshnessBar';
import { ChevronLeftIcon, ChevronRightIcon, DownloadIcon, WarningIcon } from '../../components/icons';
import { LoadErrorAlert } from '../../components/LoadErrorAlert';
import { notifyError, notifySuccess } from '../../components/notify';
import { formatDateTime } from '../../lib/format';
import { saveFile } from '../../lib/saveFile';
import { useCall } from '../../queries/useCall';
import { PersonSelect } from '../../resources/PersonSelect';
import classes from './AccessMatrix.module.css';
import { actionsWith, changedRoles, useMatrixDraft, withCell, type MatrixDraft } from './matrixDraft';
import { PersonName } from '../../resources/Members';

/**
 * `#/people-and-access/access-matrix`: every role's actions in one grid (rows: a resource and its verbs; columns: the
 * roles), edited in place and saved through the roles' update after a look at what changes; and the two questions an
 * administrator asks of it: what may this person do, and who may do this. Unsaved edits are a draft kept per tenant
 * (see matrixDraft.ts). With the tenant out of reach it shows the saved copy, read-only, or says it could not be
 * loaded when nothing is saved.
 */
export function AccessMatrixPanel({ profileId }: { profileId: string }) {
  // Reading the lists keeps the cache the matrix is computed from fresh; their changes refresh the matrix.
  // The matrix is asked for once the three lists were read (a first read answers without announcing a change).
  const lists = [
    useCall('resources.list', { profileId, kind: 'rbac-roles', pageSize: 1 }),
    useCall('resources.list', { profileId, kind: 'rbac-policies', pageSize: 1 }),
    useCall('resources.list', { profileId, kind: 'rbac-groups', pageSize: 1 }),
  ];
  const read = lists.every((list) => list.isSuccess || list.isError);
  const matrix = useCall('access.matrix', { profileId }, { enabled: read });
  const [draft, setDraft] = useMatrixDraft(profileId);
  const [reviewing, setReviewing] = useState(false);
  const bridge = useBridge();
  const [refreshing, setRefreshing] = useState(false);

  /** Reads the three lists from the tenant again (changed elsewhere), then the matrix from them. */
  async function refresh() {
    setRefreshing(true);
    try {
      for (const kind of ['rbac-roles', 'rbac-policies', 'rbac-groups'] as const) {
        await bridge.call('resources.list', { profileId, kind, pageSize: 1, refresh: true });
      }
      // Read again from the cache: a tenant out of reach is now in their freshness (the saved copy, read-only).
      await Promise.all(lists.map((list) => list.refetch()));
      await matrix.refetch();
    } catch (error) {
      notifyError('Not refreshed', error);
    } finally {
      setRefreshing(false);
    }
  }

  const title = 'The access matrix could not be loaded';
  const listError = lists.find((list) => list.isError)?.error;
  if (!matrix.data) {
    return matrix.isError ? (
      <LoadErrorAlert title={title} error={matrix.error} onRetry={() => void matrix.refetch()} />
    ) : (
      <Text c="dimmed">Reading the roles, policies and access groups…</Text>
    );
  }
  const data = matrix.data;
  // One of the lists was never read here and could not be now: an empty grid would claim there are no roles.
  if (data.asOf === null && listError) {
    return (
      <LoadErrorAlert
        title={title}
        error={listError}
        onRetry={() => void Promise.all(lists.map((list) => list.refetch())).then(() => matrix.refetch())}
      />
    );
  }
  const offline = lists.map((list) => list.data?.freshness.offline).find(Boolean) ?? null;
  const changed = changedRoles(data.roles, draft);

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <div>
          <Title order={2} size="h4">
            Access matrix
          </Title>
          <Text size="sm" c="dimmed">
            Which actions each role holds. Policies grant roles to people and groups over resource paths.
            {data.asOf ? ` Roles as of ${formatDateTime(data.asOf)}.` : ''}
          </Text>
        </div>
        <Group gap="xs">
          <Button variant="default" size="xs" loading={refreshing} onClick={() => void refresh()}>
            Refresh
          </Button>
          <ExportMatrix profileId={profileId} />
          <Button
            variant="default"
            size="xs"
            className={classes.action}
            disabled={!changed.length}
            onClick={() => setDraft({})}
          >
            Discard changes
          </Button>
          <Button
            size="xs"
            className={classes.action}
            disabled={!changed.length || !!offline}
            onClick={() => setReviewing(true)}
          >
            Review {changed.length ? `${changed.length} role${changed.length === 1 ? '' : 's'}` : 'changes'}
          </Button>
        </Group>
      </Group>
      <OfflineBanner freshness={offline ? { asOf: data.asOf, source: 'cache', offline } : undefined} />
      {changed.length > 0 && (
        <Text size="sm" c="dimmed" role="status" data-testid="matrix-draft-note">
          Unsaved changes to {changed.length} role{changed.length === 1 ? '' : 's'}, kept on this computer until you
          review and save them or discard them.
        </Text>
      )}
      {data.roles.length ? (
        <MatrixGrid data={data} draft={draft} onEdit={setDraft} readOnly={!!offline} />
      ) : (
        <Text c="dimmed">No roles yet: create one under Roles, and its actions show here.</Text>
      )}
      {/* One above the other: each answer is a table of three columns that needs the panel's width. */}
      <Stack gap="lg">
        <WhatCanThisPersonDo profileId={profileId} people={data.people} />
        <WhoCanDoThis profileId={profileId} data={data} />
      </Stack>
      {reviewing && (
        <ReviewChanges
          profileId={profileId}
          roles={changed}
          onClose={() => setReviewing(false)}
          onSaved={() => {
            setReviewing(false);
            setDraft({});
          }}
        />
      )}
    </Stack>
  );
}

/** The resource and verb columns stay in view while the roles scroll under them. */
const RESOURCE_WIDTH = 150;
const VERB_WIDTH = 64;
const WINDOW_HEIGHT = 'calc(100dvh - var(--app-shell-header-height, 0px) - var(--mantine-spacing-md))';
const STICKY = { position: 'sticky', background: 'var(--mantine-color-body)' } as const;

/**
 * The grid: one focusable cell at a time (arrow keys move, Home/End to a row's ends, Space ticks), so a keyboard
 * crosses 50 roles without 4,000 tab stops.
 */
function MatrixGrid({
  data,
  draft,
  onEdit,
  readOnly,
}: {
  data: Matrix;
  draft: MatrixDraft;
  onEdit(draft: MatrixDraft): void;
  /** The saved copy, shown while the tenant cannot be reached: nothing could be saved. */
  readOnly: boolean;
}) {
  const rows = useMemo(
    () => data.resources.flatMap((resource) => resource.verbs.map((verb) => ({ resource, verb }))),
    [data.resources],
  );
  const [focus, setFocus] = useState({ row: 0, col: 0 });
  const grid = useRef<HTMLTableElement>(null);
  const [scroller, setScroller] = useState<HTMLDivElement | null>(null);
  const shown = useShownColumns(scroller, data.roles.length);
  const after = useMemo(() => new Map(data.roles.map((role) => [role.id, actionsWith(role, draft)])), [data, draft]);
  const edited = useMemo(() => new Set(changedRoles(data.roles, draft).map((role) => role.id)), [data, draft]);

  function move(event: KeyboardEvent) {
    const steps: Record<string, [number, number]> = {
      ArrowUp: [-1, 0],
      ArrowDown: [1, 0],
      ArrowLeft: [0, -1],
      ArrowRight: [0, 1],
    };
    let { row, col } = focus;
    if (steps[event.key]) {
      row = Math.min(rows.length - 1, Math.max(0, row + steps[event.key]![0]));
      col = Math.min(data.roles.length - 1, Math.max(0, col + steps[event.key]![1]));
    } else if (event.key === 'Home') col = 0;
    else if (event.key === 'End') col = data.roles.length - 1;
    else return;
    event.preventDefault();
    setFocus({ row, col });
    grid.current?.querySelector<HTMLInputElement>(`[data-cell="${row}:${col}"]`)?.focus();
  }

  return (
    // As tall as its rows up to the window under the top bar: a grid that fits has no scroll of its own, and a taller
    // one scrolls inside a box that is wholly in view once the page is scrolled to it (its header row stays on top).
    <Stack gap={6}>
      {shown.hidden && (
        // The roles that do not fit scroll sideways under the resource and verb columns: said, and offered by buttons
        // in view (the box's own scrollbar may be below the window's edge).
        <Group justify="flex-end" gap="xs" data-testid="matrix-columns">
          <Text size="sm" c="dimmed" aria-live="polite">
            Roles {shown.first + 1}–{shown.last + 1} of {data.roles.length}
          </Text>
          <ActionIcon
            variant="default"
            aria-label="Earlier roles"
            disabled={shown.first === 0}
            onClick={() => scrollRoles(scroller, -1)}
          >
            <ChevronLeftIcon size={16} />
          </ActionIcon>
          <ActionIcon
            variant="default"
            aria-label="More roles"
            disabled={shown.last === data.roles.length - 1}
            onClick={() => scrollRoles(scroller, 1)}
          >
            <ChevronRightIcon size={16} />
          </ActionIcon>
        </Group>
      )}
      <Table.ScrollContainer
        ref={setScroller}
        minWidth={320}
        maxHeight={WINDOW_HEIGHT}
        type="native"
        className={classes.scroller}
        data-more-right={shown.last < data.roles.length - 1 || undefined}
        // A cell the keyboard moves to is scrolled clear of the columns that stay in view.
        style={{ scrollPaddingLeft: RESOURCE_WIDTH + VERB_WIDTH }}
      >
        <Table
          ref={grid}
          stickyHeader
          withColumnBorders
          highlightOnHover
          aria-label="Access matrix: resources and verbs by role"
          data-testid="access-matrix"
          onKeyDown={move}
          fz="sm"
        >
          <Table.Thead>
            <Table.Tr>
              <Table.Th style={{ ...STICKY, left: 0, zIndex: 3, width: RESOURCE_WIDTH, minWidth: RESOURCE_WIDTH }}>
                Resource
              </Table.Th>
              <Table.Th style={{ ...STICKY, left: RESOURCE_WIDTH, zIndex: 3, width: VERB_WIDTH, minWidth: VERB_WIDTH }}>
                Verb
              </Table.Th>
              {data.roles.map((role) => (
                <Table.Th key={role.id} style={{ whiteSpace: 'nowrap' }} data-role-column>
                  {role.name}
                  {edited.has(role.id) && (
                    // Its words widen the column rather than being cut off at its edge (a badge's label may shrink).
                    <Badge size="xs" ml={4} variant="light" color="orange" styles={{ label: { overflow: 'visible' } }}>
                      edited
                    </Badge>
                  )}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map(({ resource, verb }, rowIndex) => {
              const action = `${resource.name}/${verb}`;
              return (
                <Table.Tr key={action}>
                  {verb === resource.verbs[0] && (
                    <Table.Th
                      scope="rowgroup"
                      rowSpan={resource.verbs.length}
                      title={resource.name}
                      style={{ ...STICKY, left: 0, zIndex: 1, width: RESOURCE_WIDTH, minWidth: RESOURCE_WIDTH }}
                    >
                      {resource.label}
                    </Table.Th>
                  )}
                  <Table.Td
                    style={{ ...STICKY, left: RESOURCE_WIDTH, zIndex: 1, width: VERB_WIDTH, minWidth: VERB_WIDTH }}
                  >
                    {verb}
                  </Table.Td>
                  {data.roles.map((role, colIndex) => {
                    const held = role.actions.includes(action);
                    const checked = after.get(role.id)!.has(action);
                    return (
                      <Table.Td
                        key={role.id}
                        style={{
                          textAlign: 'center',
                          background: held !== checked ? 'var(--mantine-color-orange-light)' : undefined,
                        }}
                      >
                        <Checkbox
                          size="xs"
                          styles={{ body: { justifyContent: 'center' } }}
                          checked={checked}
                          disabled={readOnly}
                          tabIndex={focus.row === rowIndex && focus.col === colIndex ? 0 : -1}
                          data-cell={`${rowIndex}:${colIndex}`}
                          aria-label={`${role.name}: ${verb} ${resource.label}`}
                          onFocus={() => setFocus({ row: rowIndex, col: colIndex })}
                          onChange={(event) => onEdit(withCell(draft, role, action, event.currentTarget.checked))}
                        />
                      </Table.Td>
                    );
                  })}
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}

/** The role columns wholly in view right of the columns that stay (first and last index), and whether any is not. */
function useShownColumns(scroller: HTMLDivElement | null, count: number) {
  const [shown, setShown] = useState({ first: 0, last: count - 1, hidden: false });
  useEffect(() => {
    if (!scroller) return;
    const measure = () => {
      const box = scroller.getBoundingClientRect();
      const left = box.left + RESOURCE_WIDTH + VERB_WIDTH;
      const columns = [...scroller.querySelectorAll<HTMLElement>('[data-role-column]')].map((th) =>
        th.getBoundingClientRect(),
      );
      const inView = columns.flatMap((rect, index) =>
        rect.left >= left - 1 && rect.right <= box.right + 1 ? [index] : [],
      );
      const next = {
        first: inView[0] ?? 0,
        last: inView.at(-1) ?? 0,
        hidden: inView.length < columns.length,
      };
      setShown((was) =>
        was.first === next.first && was.last === next.last && was.hidden === next.hidden ? was : next,
      );
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(scroller);
    scroller.addEventListener('scroll', measure, { passive: true });
    return () => {
      observer.disconnect();
      scroller.removeEventListener('scroll', measure);
    };
  }, [scroller, count]);
  return shown;
}

/** Scrolls the roles by what shows of them at once, less one column's overlap. */
function scrollRoles(scroller: HTMLDivElement | null, direction: 1 | -1) {
  if (!scroller) return;
  const page = Math.max(120, scroller.clientWidth - RESOURCE_WIDTH - VERB_WIDTH - 60);
  scroller.scrollBy({ left: direction * page, behavior: 'smooth' });
}

/** What the edits change, role by role, and the engine's word on whether the tenant keeps an administrator. */
function ReviewChanges({
  profileId,
  roles,
  onClose,
  onSaved,
}: {
  profileId: string;
  roles: { id: number; actions: string[] }[];
  onClose(): void;
  onSaved(): void;
}) {
  const bridge = useBridge();
  const plan = useCall('access.plan', { profileId, roles });
  const [saving, setSaving] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);

  async function save() {
    setSaving(true);
    setFailed(null);
    let saved = 0;
    for (const change of plan.data?.changes ?? []) {
      try {
        await bridge.call('resources.update', {
          profileId,
          kind: 'rbac-roles',
          id: String(change.id),
          values: { actions: change.actions },
        });
        saved++;
      } catch (error) {
        setFailed(`${change.name}: ${(error as Error).message}`);
        notifyError('Not saved', error);
        setSaving(false);
        return;
      }
    }
    setSaving(false);
    notifySuccess('Saved', `${saved} role${saved === 1 ? '' : 's'} changed`);
    onSaved();
  }

  return (
    <Modal opened onClose={onClose} title="Review changes to roles" size="lg">
      <Stack gap="sm" data-testid="access-diff">
        {plan.data?.changes.map((change) => (
          <Paper key={change.id} withBorder p="sm">
            <Text fw={600} size="sm">
              {change.name}
            </Text>
            <List size="sm" spacing={2} listStyleType="none">
              {change.added.map((action) => (
                <List.Item key={`+${action}`} c="green.8" title={action}>
                  + {actionLabel(action)}
                </List.Item>
              ))}
              {change.removed.map((action) => (
                <List.Item key={`-${action}`} c="red.8" title={action}>
                  − {actionLabel(action)}
                </List.Item>
              ))}
            </List>
          </Paper>
        ))}
        {plan.data?.refusal && (
          <Alert color="red" icon={<WarningIcon />} title="This cannot be saved">
            {plan.data.refusal}
          </Alert>
        )}
        {failed && (
          <Alert color="red" icon={<WarningIcon />} title="Stopped at a refusal">
            {failed}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Keep editing
          </Button>
          <Button
            className={classes.action}
            onClick={() => void save()}
            loading={saving}
            disabled={!plan.data?.changes.length || !!plan.data.refusal}
          >
            Save {plan.data?.changes.length ?? ''} role{plan.data?.changes.length === 1 ? '' : 's'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function WhatCanThisPersonDo({ profileId, people }: { profileId: string; people: Matrix['people'] }) {
  const [userId, setUserId] = useState<string | null>(null);
  const grants = useCall('access.effective', { profileId, userId: Number(userId) }, { enabled: userId !== null });
  // The whole directory, and first the people a policy or group names.
  const named = useMemo(() => people.map((p) => ({ user_id: p.id, username: p.username, email: p.email })), [people]);
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={3} size="h5">
          What can this person do?
        </Title>
        <PersonSelect
          profileId={profileId}
          valueField="user_id"
          offered={named}
          label="Person"
          placeholder="Search the directory by name, username or email"
          value={userId}
          onChange={setUserId}
          clearable
        />
        {userId !== null && grants.data && (
          <Table.ScrollContainer minWidth={560} type="native">
            <Table fz="sm" data-testid="effective-permissions">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Action</Table.Th>
                  <Table.Th>Over</Table.Th>
                  <Table.Th>Granted by</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {grants.data.grants.map((grant) => (
                  <Table.Tr key={`${grant.action} ${grant.resource} ${grant.policy.id} ${grant.group?.id ?? ''}`}>
                    <Table.Td style={{ whiteSpace: 'nowrap' }} title={grant.action}>
                      {actionLabel(grant.action)}
                    </Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>
                      <code>{grant.resource}</code>
                    </Table.Td>
                    <Table.Td>
                      {grant.policy.name} (role {grant.role.name}){grant.group ? `, through ${grant.group.name}` : ''}
                    </Table.Td>
                  </Table.Tr>
                ))}
                {!grants.data.grants.length && (
                  <Table.Tr>
                    <Table.Td colSpan={3}>
                      <Text c="dimmed" size="sm">
                        No policy grants this person anything.
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                )}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Paper>
  );
}

function WhoCanDoThis({ profileId, data }: { profileId: string; data: Matrix }) {
  const actions = data.resources.flatMap((r) => r.verbs.map((verb) => `${r.name}/${verb}`));
  const [action, setAction] = useState<string | null>(actions[0] ?? null);
  const guarded = GUARDED_RESOURCES.find((g) => action?.startsWith(`${g.action}/`));
  const [resource, setResource] = useState('');
  const path = resource.trim() || (guarded ? guarded.path.slice('/api/core'.length) : '/');
  const who = useCall('access.whoCan', { profileId, action: action ?? '', resource: path }, { enabled: !!action });
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={3} size="h5">
          Who can do this?
        </Title>
        <Group grow align="flex-start" wrap="wrap">
          <Select
            label="Action"
            data={actions.map((value) => ({ value, label: actionLabel(value) }))}
            value={action}
            onChange={setAction}
            searchable
            miw={200}
            title={action ?? undefined}
          />
          <TextInput
            label="Over the resource"
            description="Empty: all of them. A resource path narrows it to one."
            placeholder={guarded ? `All ${guarded.label.toLowerCase()}` : 'The whole tenant'}
            value={resource}
            onChange={(event) => setResource(event.currentTarget.value)}
            miw={160}
          />
        </Group>
        {who.data && (
          <Stack gap={4} data-testid="who-can">
            <Text size="sm" fw={600}>
              People
            </Text>
            {who.data.people.length ? (
              <List size="sm" spacing={2}>
                {who.data.people.map((person) => (
                  <List.Item key={person.id}>
                    <PersonName
                      profileId={profileId}
                      held={{ user_id: person.id, username: person.username }}
                      link={false}
                    />
                    : {person.policies.join(', ')}
                    {person.groups.length ? ` (through ${person.groups.join(', ')})` : ''}
                  </List.Item>
                ))}
              </List>
            ) : (
              <Text size="sm" c="dimmed">
                No one through a policy (tenant admins may, without one).
              </Text>
            )}
            <Text size="sm" fw={600} mt="xs">
              Access groups
            </Text>
            {who.data.groups.length ? (
              <List size="sm" spacing={2}>
                {who.data.groups.map((group) => (
                  <List.Item key={group.id}>
                    {group.name}: {group.policies.join(', ')}
                  </List.Item>
                ))}
              </List>
            ) : (
              <Text size="sm" c="dimmed">
                None.
              </Text>
            )}
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}

function ExportMatrix({ profileId }: { profileId: string }) {
  const bridge = useBridge();
  const [busy, setBusy] = useState(false);
  async function exportCsv() {
    setBusy(true);
    try {
      const file = await bridge.call('access.export', { profileId });
      saveFile(new Blob([file.csv], { type: 'text/csv;charset=utf-8' }), file.fileName);
      notifySuccess('Exported', `The access matrix to ${file.fileName}`);
    } catch (error) {
      notifyError('Not exported', error);
    } finally {
      setBusy(false);
    }
  }
  return (
    <Button
      variant="default"
      size="xs"
      leftSection={<DownloadIcon size={14} />}
      loading={busy}
      onClick={() => void exportCsv()}
    >
      Export CSV
    </Button>
  );
}
