import { Alert, Button, Group, Kbd, Modal, Select, Text, TextInput } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { TicketSort, TicketStatus, TicketView } from '../../../shared/contract';
import { TICKET_SORTS } from '../../../shared/contract';
import { useBridge } from '../../bridge/BridgeContext';
import { EditTenantButton } from '../../components/LoadErrorAlert';
import { UNREACHABLE_NEXT } from '../../components/nextStep';
import { NOT_AVAILABLE_OFFLINE } from '../../components/FreshnessBar';
import { useTenantReach } from '../../tenants/useTenantReach';
import { useCall } from '../../queries/useCall';
import { navigateTo, useSubRoute } from '../../shell/routes';
import { CheatSheet } from '../../components/CheatSheet';
import { TICKET_SHORTCUTS } from './shortcuts';
import { SlaDefaultsForm } from '../../components/TicketSlaTargets';
import { useDesktopNotifications } from '../../shell/ticketNotifications';
import { TicketPane } from './TicketPane';
import { ROW_HEIGHT, TicketRow } from './TicketRow';
import { useTicketActions } from './useTicketActions';
import { useTicketWindow } from './useTicketWindow';
import { cursorIndex } from './cursor';
import { pressing, typingIn } from '../../lib/keys';
import { BulkBar, QueueTitleBar, ViewPicker } from './QueueHeader';
import { ViewEditor, SORT_LABEL } from './ViewEditor';
import { ViewsPanel } from './ViewsPanel';
import { VirtualList, type VirtualListHandle } from '../../components/VirtualList';
import { useWatchTickets } from './watch';
import { plural } from '../../lib/format';

const G_VIEWS: Record<string, string> = { o: 'open', p: 'in_progress', c: 'closed', a: 'all', m: 'mine' };

/**
 * The support queue: views with counts, a windowed list that stays smooth at 100,000 tickets, full-text search, and
 * the ticket beside it. Everything works from the keyboard (press ? for the keys) and focus always lands somewhere
 * useful after an action.
 */
export function TicketsScreen() {
  const bridge = useBridge();
  const views = useCall('tickets.views', {});
  const [viewId, setViewId] = useState('open');
  const [sort, setSort] = useState<TicketSort | null>(null);
  const [searchText, setSearchText] = useState('');
  const [search, setSearch] = useState('');
  const [cursor, setCursor] = useState(0);
  /** The ticket under the cursor: when rows move (live updates, a closed ticket leaving), the cursor follows it. */
  const [cursorId, setCursorId] = useState<number | null>(null);
  const [openId, setOpenId] = useState<number | null>(null);
  const [checked, setChecked] = useState<Set<number>>(new Set());
  const [cheatSheet, setCheatSheet] = useState(false);
  const [editing, setEditing] = useState<TicketView | null | undefined>(undefined);
  const sync = useCall('tickets.status', {}).data ?? null;
  // The app's banner says the tenant cannot be reached, with Check again and Edit tenant: the list says no more.
  const bannerSaysWhy = useTenantReach().unreachable;
  const [slaTargets, setSlaTargets] = useState(false);
  // Narrow windows (from 1000 px): the views become a picker above the list, so the ticket keeps room to be read.
  const { ref: screen, width } = useElementSize();
  const compact = width > 0 && width < 980;
  const gPending = useRef<number>(0);
  const list = useRef<VirtualListHandle>(null);
  const searchBox = useRef<HTMLInputElement>(null);
  const replyRef = useRef<HTMLTextAreaElement>(null);
  const notifications = useDesktopNotifications();
  useWatchTickets(true);

  // A route from a desktop notification: #/tickets/<id> opens that ticket, #/tickets/<view> shows that view.
  const routedTo = useSubRoute()[0] ?? '';
  const [routed, setRouted] = useState('');
  if (routedTo !== routed) {
    setRouted(routedTo);
    if (/^\d{1,15}$/.test(routedTo)) {
      setCursorId(Number(routedTo));
      setOpenId(Number(routedTo));
    } else if (Object.values(G_VIEWS).includes(routedTo)) {
      setViewId(routedTo);
      setSort(null);
    }
  }
  // Then back to the plain route, so the same notification target works again.
  useEffect(() => {
    if (routedTo) navigateTo('#/tickets');
  }, [routedTo]);

  const view = views.data?.views.find((v) => v.id === viewId);
  const effectiveSort: TicketSort = sort ?? view?.sort ?? 'newest';
  const params = useMemo(() => ({ view: viewId, sort: effectiveSort, search }), [viewId, effectiveSort, search]);
  const rows = useTicketWindow(params);
  // Actions read the latest rows (for the status an Undo puts back) without being rebuilt at every change.
  const latestRows = useRef(rows);
  useEffect(() => {
    latestRows.current = rows;
  }, [rows]);
  const statusOf = useCallback((id: number) => {
    const current = latestRows.current;
    return current.row(current.indexOf(id))?.status;
  }, []);
  const actions = useTicketActions({ patch: rows.patch, refresh: rows.refresh, statusOf });
  const total = rows.total ?? 0;

  // Search follows typing, a beat behind.
  useEffect(() => {
    const timer = setTimeout(() => setSearch(searchText.trim()), 180);
    return () => clearTimeout(timer);
  }, [searchText]);

  // A new view or search starts at the top.
  const [shownParams, setShownParams] = useState(params);
  if (shownParams !== params) {
    setShownParams(params);
    setCursor(0);
    setCursorId(null);
    setChecked(new Set());
  }
  useEffect(() => {
    list.current?.element()?.scrollTo({ top: 0 });
  }, [params]);

  if (cursorId !== null && rows.row(cursor)?.id !== cursorId) {
    const at = rows.indexOf(cursorId);
    if (at !== -1) setCursor(at);
  }

  const clampCursor = Math.min(cursor, Math.max(0, total - 1));
  // The window's rows change as soon as a refresh lands, before the next render: a key pressed in between finds the
  // cursor's ticket by its id (Esc e then r at once must reply to the ticket the close moved to).
  const cursorNow = useCallback(() => cursorIndex(rows, cursorId, clampCursor), [rows, cursorId, clampCursor]);

  const focusList = useCallback(() => list.current?.focus(), []);

  const moveTo = useCallback(
    (index: number) => {
      const next = Math.max(0, Math.min(total - 1, index));
      setCursor(next);
      setCursorId(rows.row(next)?.id ?? null);
      list.current?.reveal(next);
    },
    [rows, total],
  );

  const openAt = useCallback(
    (index: number) => {
      const row = rows.row(index);
      if (!row) return;
      setCursor(index);
      setCursorId(row.id);
      setOpenId(row.id);
    },
    [rows],
  );

  /** The tickets an action applies to: the checked ones, else the one under the cursor, else the open one. */
  const targets = useCallback((): number[] => {
    if (checked.size) return [...checked];
    const row = rows.row(cursorNow());
    if (row) return [row.id];
    return openId ? [openId] : [];
  }, [checked, rows, cursorNow, openId]);

  const setStatus = useCallback(
    (status: TicketStatus) => {
      const ids = targets();
      if (!ids.length) return;
      const single = ids.length === 1 && !checked.size;
      void actions.setStatus(ids, status);
      setChecked(new Set());
      // Closing moves on to the next ticket (and opens it if the closed one was open).
      if (single && status === 'closed') {
        const here = cursorNow();
        const next = here + 1 < total ? here + 1 : here;
        const nextRow = rows.row(next);
        if (nextRow && nextRow.id !== ids[0]) {
          setCursor(next);
          setCursorId(nextRow.id);
          list.current?.reveal(next);
          if (openId === ids[0]) setOpenId(nextRow.id);
        }
      }
      focusList();
    },
    [actions, targets, checked, cursorNow, total, rows, openId, focusList],
  );

  const selectView = useCallback(
    (id: string) => {
      setViewId(id);
      setSort(null);
      focusList();
    },
    [focusList],
  );

  const onKeyDown = (event: React.KeyboardEvent) => {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    if (typingIn(event.target) || pressing(event)) return;
    const key = event.key;
    if (gPending.current && Date.now() - gPending.current < 1500) {
      gPending.current = 0;
      const target = G_VIEWS[key.toLowerCase()];
      if (target) {
        event.preventDefault();
        selectView(target);
      }
      return;
    }
    const handled = () => event.preventDefault();
    const here = cursorNow();
    switch (key) {
      case 'j':
      case 'ArrowDown':
        handled();
        moveTo(here + 1);
        break;
      case 'k':
      case 'ArrowUp':
        handled();
        moveTo(here - 1);
        break;
      case 'Home':
        handled();
        moveTo(0);
        break;
      case 'End':
        handled();
        moveTo(total - 1);
        break;
      case 'PageDown':
        handled();
        moveTo(here + 10);
        break;
      case 'PageUp':
        handled();
        moveTo(here - 10);
        break;
      case 'Enter':
      case 'o':
        handled();
        openAt(here);
        break;
      case 'r': {
        handled();
        const row = rows.row(here);
        if (row && row.id !== openId) setOpenId(row.id);
        const target = String(row?.id ?? openId);
        // The reply box exists once the pane has the ticket (until then the ref may still hold the previous
        // ticket's box, which is about to go).
        const focusReply = (tries: number) => {
          const box = replyRef.current;
          if (box && !box.disabled && box.closest('[data-ticket]')?.getAttribute('data-ticket') === target) box.focus();
          else if (tries > 0) setTimeout(() => focusReply(tries - 1), 30);
        };
        focusReply(60);
        break;
      }
      case 'e':
        handled();
        setStatus('closed');
        break;
      case 'i':
        handled();
        setStatus('in_progress');
        break;
      case 'O':
        handled();
        setStatus('open');
        break;
      case 'z':
        handled();
        actions.undo();
        focusList();
        break;
      case 'x': {
        handled();
        const row = rows.row(here);
        if (!row) break;
        setChecked((set) => {
          const next = new Set(set);
          if (next.has(row.id)) next.delete(row.id);
          else next.add(row.id);
          return next;
        });
        break;
      }
      case 'a': {
        handled();
        const row = rows.row(here);
        if (!row) break;
        const mine = row.local.assignee === views.data?.me;
        const ids = targets();
        void bridge.call('tickets.setLocal', { ids, assignee: mine ? null : 'me' }).catch(() => {});
        break;
      }
      case 'u': {
        handled();
        const row = rows.row(here);
        if (!row) break;
        const ids = targets();
        void bridge.call('tickets.markRead', { ids, read: row.unread }).catch(() => {});
        // An open ticket marks itself read while it is shown: marking it unread puts it away, as mail does.
        if (!row.unread && openId !== null && ids.includes(openId)) setOpenId(null);
        break;
      }
      case '/':
        handled();
        searchBox.current?.focus();
        searchBox.current?.select();
        break;
      case 'g':
        handled();
        gPending.current = Date.now();
        break;
      case '?':
        handled();
        setCheatSheet(true);
        break;
      case 'Escape':
        if (checked.size) {
          handled();
          setChecked(new Set());
        } else focusList();
        break;
    }
  };

  // Stable handlers (they do not read the rows), so a row re-renders only when its own props change.
  const onPick = useCallback(
    (index: number, id: number) => {
      setCursor(index);
      setCursorId(id);
      setOpenId(id);
      focusList();
    },
    [focusList],
  );
  const onCheck = useCallback((id: number) => {
    setChecked((set) => {
      const next = new Set(set);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }, []);
  const renderRow = useCallback(
    (index: number) => {
      const ticket = rows.row(index);
      return (
        <TicketRow
          index={index}
          ticket={ticket}
          active={index === clampCursor}
          open={!!ticket && ticket.id === openId}
          checked={!!ticket && checked.has(ticket.id)}
          sort={effectiveSort}
          onPick={onPick}
          onCheck={onCheck}
        />
      );
    },
    // rows.version: rows changed
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [rows, rows.version, clampCursor, openId, checked, effectiveSort, onPick, onCheck],
  );
  const onRange = rows.ensure;

  // Focus starts in the queue, and comes back to it whenever it would fall to the page (a row or a dialog that
  // held it went away).
  const loaded = rows.total !== null;
  useEffect(() => {
    if (loaded && (document.activeElement === document.body || !document.activeElement)) focusList();
  }, [loaded, focusList]);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const rescue = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        if (document.activeElement === document.body && !document.querySelector('[role="dialog"]')) focusList();
      }, 0);
    };
    document.addEventListener('focusout', rescue);
    return () => {
      document.removeEventListener('focusout', rescue);
      clearTimeout(timer);
    };
  }, [focusList]);

  const activeRow = rows.row(clampCursor);
  // The open ticket's SLA clocks follow the targets of the view it was opened from.
  const openIndex = openId === null ? -1 : rows.indexOf(openId);
  const openRow = openIndex === -1 ? undefined : rows.row(openIndex);
  const mentorViews = (views.data?.views ?? [])
    .filter((v) => v.kind === 'mentor')
    .map((v) => ({ id: v.id.slice(7), label: v.label }));

  return (
    <div
      ref={screen}
      onKeyDown={onKeyDown}
      style={{
        display: 'grid',
        // Every pane keeps a readable width: the list never below 260 px, the ticket never below 360 px.
        gridTemplateColumns: compact
          ? 'minmax(260px, 320px) minmax(360px, 1fr)'
          : '200px minmax(280px, 360px) minmax(380px, 1fr)',
        gridTemplateRows: 'auto minmax(0, 1fr)',
        gap: 12,
        height: 'calc(100dvh - 60px - 2 * var(--mantine-spacing-lg))',
        minWidth: 0,
      }}
    >
      <QueueTitleBar
        newCount={views.data?.newCount ?? 0}
        sync={sync}
        onSync={() => void bridge.call('tickets.sync', {}).catch(() => {})}
        notifications={notifications}
        onKeys={() => setCheatSheet(true)}
      />

      {!compact && (
        <ViewsPanel
          views={views.data?.views ?? []}
          current={viewId}
          onSelect={selectView}
          onEdit={setEditing}
          onSlaTargets={() => setSlaTargets(true)}
        />
      )}

      <div style={{ display: 'flex', flexDirection: 'column', minHeight: 0, minWidth: 0, gap: 8 }}>
        {compact && (
          <ViewPicker
            views={views.data?.views ?? []}
            current={viewId}
            onSelect={selectView}
            onEdit={setEditing}
            onSlaTargets={() => setSlaTargets(true)}
          />
        )}
        <TextInput
          ref={searchBox}
          placeholder="Search subject, description, messages…"
          aria-label="Search tickets"
          value={searchText}
          onChange={(e) => setSearchText(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' || e.key === 'ArrowDown') {
              e.preventDefault();
              setSearch(searchText.trim());
              focusList();
            }
            if (e.key === 'Escape') {
              e.preventDefault();
              if (searchText) setSearchText('');
              else focusList();
            }
          }}
          rightSection={<Kbd size="xs">/</Kbd>}
          size="xs"
        />
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Text size="xs" c="dimmed" aria-live="polite">
            {rows.total === null ? 'Loading…' : plural(total, 'ticket')}
            {view ? ` · ${view.label}` : ''}
          </Text>
          <Select
            size="xs"
            w={150}
            aria-label="Sort"
            data={TICKET_SORTS.map((s) => ({ value: s, label: SORT_LABEL[s] }))}
            value={effectiveSort}
            onChange={(v) => {
              setSort((v as TicketSort | null) ?? null);
              focusList();
            }}
            allowDeselect={false}
          />
        </Group>
        {checked.size > 0 && (
          <BulkBar count={checked.size} onStatus={setStatus} onClear={() => setChecked(new Set())} />
        )}
        {rows.error && (
          <Alert color="red" role="alert">
            {rows.error}
          </Alert>
        )}
        <div
          style={{
            flex: 1,
            minHeight: 0,
            border: '1px solid var(--mantine-color-default-border)',
            borderRadius: 'var(--mantine-radius-md)',
          }}
        >
          {rows.total === 0 ? (
            <div
              tabIndex={0}
              ref={(el) => {
                if (el && document.activeElement === document.body) el.focus();
              }}
              data-testid="ticket-list"
              style={{ padding: 16 }}
            >
              <Text size="sm" c="dimmed">
                {search
                  ? `No ticket matches “${search}”.`
                  : sync?.state === 'syncing'
                    ? 'Fetching tickets…'
                    : !sync?.asOf && sync?.state === 'offline' && bannerSaysWhy
                      ? NOT_AVAILABLE_OFFLINE
                      : // Nothing was ever fetched: say why (the engine names the tenant), not "no tickets".
                        !sync?.asOf && (sync?.state === 'offline' || sync?.state === 'error') && sync.message
                        ? sync.message
                        : 'No tickets in this view.'}
              </Text>
              {!search && !sync?.asOf && sync?.state === 'offline' && !bannerSaysWhy && (
                <>
                  <Text size="sm" mt={6} data-testid="load-error-next">
                    <Text span fw={600} inherit>
                      Next:{' '}
                    </Text>
                    {UNREACHABLE_NEXT}
                  </Text>
                  <Group gap="xs" mt="xs">
                    <Button
                      size="xs"
                      variant="default"
                      onClick={() => void bridge.call('tickets.sync', {}).catch(() => {})}
                    >
                      Try again
                    </Button>
                    <EditTenantButton />
                  </Group>
                </>
              )}
            </div>
          ) : (
            <VirtualList
              testId="ticket-list"
              ref={list}
              count={total}
              rowHeight={ROW_HEIGHT}
              renderRow={renderRow}
              onRange={onRange}
              label={`Tickets: ${view?.label ?? viewId}`}
              activeDescendant={activeRow ? `ticket-row-${activeRow.id}` : undefined}
            />
          )}
        </div>
      </div>

      <div style={{ overflowY: 'auto', minHeight: 0, minWidth: 0, paddingRight: 4 }} aria-label="Ticket" role="region">
        {openId ? (
          <TicketPane
            sla={openRow?.sla}
            key={openId}
            id={openId}
            me={views.data?.me ?? ''}
            replyRef={replyRef}
            actions={actions}
            onBackToList={focusList}
          />
        ) : (
          <Text size="sm" c="dimmed" mt="md">
            Press <Kbd>Enter</Kbd> to open the ticket under the cursor, <Kbd>j</Kbd>/<Kbd>k</Kbd> to move, <Kbd>?</Kbd>{' '}
            for all keys.
          </Text>
        )}
      </div>

      <CheatSheet
        shortcuts={TICKET_SHORTCUTS}
        opened={cheatSheet}
        onClose={() => {
          setCheatSheet(false);
          focusList();
        }}
      />
      <ViewEditor
        view={editing}
        mentors={mentorViews}
        search={search}
        onClose={() => {
          setEditing(undefined);
          focusList();
        }}
        onSaved={(id) => selectView(id)}
      />
      <Modal
        opened={slaTargets}
        onClose={() => {
          setSlaTargets(false);
          focusList();
        }}
        title="SLA targets of this tenant"
        size="lg"
      >
        <Text size="sm" c="dimmed" mb="sm">
          Every view without targets of its own runs its clocks on these (local only: the platform has no SLA).
        </Text>
        <SlaDefaultsForm
          onSaved={() => {
            setSlaTargets(false);
            focusList();
          }}
        />
      </Modal>
    </div>
  );
}
