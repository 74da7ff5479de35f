import {
  Alert,
  Badge,
  Button,
  Group,
  Kbd,
  Select,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ReviewFilter, ReviewItem, ReviewSource } from '../../../shared/contract';
import { useBridge } from '../../bridge/BridgeContext';
import { ConfirmModal } from '../../components/ConfirmModal';
import { notifyError, notifySuccess } from '../../components/notify';
import { formatAsOf, formatDateTime, plural } from '../../lib/format';
import { SavedCopyNote } from '../../components/FreshnessBar';
import { useTenantReach } from '../../tenants/useTenantReach';
import { CloudOffIcon } from '../../components/icons';
import { DayInput } from '../../components/DayInput';
import { LoadErrorAlert, NotAvailableOffline } from '../../components/LoadErrorAlert';
import { isUnreachable } from '../../components/nextStep';
import { handOverQuote } from '../../lib/reviewQuote';
import { saveFile } from '../../lib/saveFile';
import { useCall, useMutationCall } from '../../queries/useCall';
import { navigateTo } from '../../shell/routes';
import { CheatSheet } from '../../components/CheatSheet';
import { pressing, typingIn } from '../../lib/keys';
import { VirtualList, type VirtualListHandle } from '../../components/VirtualList';
import { deletable, ReviewPane, sourceColor, sourceLabel } from './ReviewPane';
import { TraceModal } from '../../components/traces/TraceView';
import { TicketNoteModal } from './TicketNoteModal';
import { useActiveTenant } from '../../tenants/tenantContext';
import { SessionModal, type OpenSession } from '../../components/sessions/SessionModal';
import { useReviewWindow } from './useReviewWindow';

const ROW = 58;
const NO_DELETE = 'A rating is kept on the tenant and no call deletes it: press e to mark it reviewed';

export const REVIEW_SHORTCUTS: [keys: string[], what: string][] = [
  [['j'], 'Next item'],
  [['k'], 'Previous item'],
  [['Enter'], 'Open the item'],
  [['e'], 'Mark reviewed (or open again) and go to the next'],
  [['d'], 'Delete the log on the tenant (asks first; a rating cannot be deleted)'],
  [['c'], 'Go to the flagged or rated message in its conversation'],
  [['t'], 'Open the trace of the conversation'],
  [['/'], 'Filter by learner'],
  [['s'], 'Search the text of the items'],
  [['Esc'], 'Back to the list'],
  [['?'], 'This cheat sheet'],
];

/** A date field's name written inside it, so the row keeps one height (the other filters need no label). */
function Row({ item, active }: { item: ReviewItem | undefined; active: boolean }) {
  if (!item) {
    return <div style={{ height: ROW, borderBottom: '1px solid var(--mantine-color-default-border)' }} />;
  }
  return (
    <div
      id={`review-row-${item.id}`}
      role="option"
      aria-selected={active}
      data-id={item.id}
      style={{
        height: ROW,
        padding: '6px 10px',
        borderBottom: '1px solid var(--mantine-color-default-border)',
        background: active ? 'var(--mantine-primary-color-light)' : undefined,
        opacity: item.reviewedBy ? 0.65 : 1,
        cursor: 'pointer',
      }}
    >
      <Group gap={6} wrap="nowrap">
        <Badge size="xs" variant="light" color={sourceColor(item.source)}>
          {sourceLabel(item.source)}
        </Badge>
        <Text size="xs" c="dimmed" truncate="end" style={{ flex: 1 }}>
          {formatDateTime(item.createdAt)} · {item.learner} · {item.mentorName ?? `mentor ${item.mentorId}`}
        </Text>
        {item.reviewedBy && (
          <Badge size="xs" color="green" variant="light">
            Reviewed
          </Badge>
        )}
      </Group>
      <Text size="sm" truncate="end" fw={500}>
        {item.reason} — <span style={{ fontWeight: 400 }}>{item.prompt}</span>
      </Text>
    </div>
  );
}

/**
 * The review queue: the tenant's moderation and safety logs and the conversations learners rated down as one
 * keyboard-first queue (press ? for the keys), read
 * from the local cache, with filters, saved views, counts per mentor, a CSV export and the item beside it.
 */
export function ReviewScreen() {
  const bridge = useBridge();
  const { id: tenantId } = useActiveTenant();
  const [sources, setSources] = useState<string>('all');
  const [mentor, setMentor] = useState<string | null>(null);
  const [learnerText, setLearnerText] = useState('');
  const [learner, setLearner] = useState('');
  const [searchText, setSearchText] = useState('');
  const [search, setSearch] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [state, setState] = useState<'open' | 'reviewed' | 'all'>('open');
  const [cursor, setCursor] = useState(0);
  const [openItem, setOpenItem] = useState<ReviewItem | null>(null);
  const [focusConversation, setFocusConversation] = useState(0);
  const [deleting, setDeleting] = useState<ReviewItem | null>(null);
  const [traceId, setTraceId] = useState<string | null>(null);
  const [session, setSession] = useState<OpenSession | null>(null);
  const [noting, setNoting] = useState<ReviewItem | null>(null);
  const [cheatSheet, setCheatSheet] = useState(false);
  const list = useRef<VirtualListHandle>(null);
  const learnerBox = useRef<HTMLInputElement>(null);
  const searchBox = useRef<HTMLInputElement>(null);
  const { ref: screen, width } = useElementSize();
  const compact = width > 0 && width < 1100;

  useEffect(() => {
    const timer = setTimeout(() => setLearner(learnerText.trim()), 250);
    return () => clearTimeout(timer);
  }, [learnerText]);
  useEffect(() => {
    const timer = setTimeout(() => setSearch(searchText.trim()), 250);
    return () => clearTimeout(timer);
  }, [searchText]);

  const filter: ReviewFilter = useMemo(
    () => ({
      state,
      ...(sources !== 'all' ? { sources: [sources as ReviewSource] } : {}),
      ...(mentor ? { mentor: Number(mentor) } : {}),
      ...(learner ? { learner } : {}),
      ...(search ? { search } : {}),
      ...(/^\d{4}-\d{2}-\d{2}$/.test(from) ? { from } : {}),
      ...(/^\d{4}-\d{2}-\d{2}$/.test(to) ? { to } : {}),
    }),
    [state, sources, mentor, learner, search, from, to],
  );
  const queue = useReviewWindow(filter);
  const views = useCall('review.views', {});
  const sync = useMutationCall('review.sync');
  const mark = useMutationCall('review.mark');
  const remove = useMutationCall('review.delete');
  const saveView = useMutationCall('review.saveView');
  const { mutate: runSync } = sync;
  useEffect(() => runSync({}), [runSync]);

  // A new filter starts at the top with nothing open.
  const [shownFilter, setShownFilter] = useState(filter);
  if (shownFilter !== filter) {
    setShownFilter(filter);
    setCursor(0);
    setOpenItem(null);
  }
  const current = queue.row(cursor);

  const move = useCallback(
    (to: number) => {
      const next = Math.max(0, Math.min(queue.total - 1, to));
      setCursor(next);
      list.current?.reveal(next);
      const item = queue.row(next);
      if (openItem && item) setOpenItem(item);
    },
    [queue, openItem],
  );

  function toggleReviewed(item: ReviewItem) {
    mark.mutate(
      { ids: [item.id], reviewed: !item.reviewedBy },
      { onError: (error) => notifyError('Not marked', error) },
    );
    // In the open queue the item leaves: the next one slides under the cursor. Elsewhere, step on.
    if (state === 'all' || (state === 'reviewed') === !item.reviewedBy) move(cursor + 1);
    const next = state === 'open' && !item.reviewedBy ? queue.row(cursor + 1) : undefined;
    if (openItem && next) setOpenItem(next);
  }

  async function exportCsv() {
    try {
      const file = await bridge.call('review.export', { filter });
      saveFile(new Blob([file.csv], { type: 'text/csv;charset=utf-8' }), file.fileName);
      notifySuccess('Exported', `${plural(file.rows, 'item')} to ${file.fileName}`);
    } catch (error) {
      notifyError('Not exported', error);
    }
  }

  async function openTrace(session: string) {
    try {
      const { traces } = await bridge.call('review.traceOf', { session });
      if (!traces.length) notifyError('No trace', new Error('The tenant keeps no trace for this conversation'));
      else setTraceId(traces[0]!.id);
    } catch (error) {
      notifyError('Trace not read', error);
    }
  }

  function adjust(item: ReviewItem, uniqueId: string | null) {
    if (!uniqueId) {
      notifyError('Mentor not found', new Error('The mentor of this item is not known to this tenant connection'));
      return;
    }
    handOverQuote({
      mentor: uniqueId,
      source: item.source,
      reason: item.reason,
      prompt: item.prompt,
      at: item.createdAt,
    });
    navigateTo(`#/mentors/${encodeURIComponent(uniqueId)}/settings`);
  }

  function onKeyDown(event: React.KeyboardEvent) {
    if (typingIn(event.target) || pressing(event) || event.metaKey || event.ctrlKey || event.altKey) return;
    const item = queue.row(cursor);
    const handled = (() => {
      switch (event.key) {
        case 'j':
        case 'ArrowDown':
          move(cursor + 1);
          return true;
        case 'k':
        case 'ArrowUp':
          move(cursor - 1);
          return true;
        case 'Enter':
        case 'o':
          if (item) setOpenItem(item);
          return true;
        case 'Escape':
          setOpenItem(null);
          list.current?.focus();
          return true;
        case 'e':
          if (item) toggleReviewed(item);
          return true;
        case 'd':
          if (item && deletable(item)) setDeleting(item);
          else if (item) notifyError('Not deleted', new Error(NO_DELETE));
          return true;
        case 'c':
          if (item) {
            setOpenItem(item);
            setFocusConversation((n) => n + 1);
          }
          return true;
        case 't':
          if (openItem) {
            void bridge.call('review.get', { id: openItem.id }).then(({ conversation }) => {
              if (conversation.session) void openTrace(conversation.session);
            });
          }
          return true;
        case '/':
          learnerBox.current?.focus();
          return true;
        case 's':
          searchBox.current?.focus();
          return true;
        case '?':
          setCheatSheet(true);
          return true;
        default:
          return false;
      }
    })();
    if (handled) event.preventDefault();
  }

  const mentorOptions = queue.mentors.map((m) => ({
    value: String(m.id),
    label: `${m.name ?? `Mentor ${m.id}`} (${m.open} open / ${m.total})`,
  }));
  const viewOptions = (views.data ?? []).map((v) => ({ value: String(v.id), label: v.name }));

  function applyView(id: string | null) {
    const view = views.data?.find((v) => String(v.id) === id);
    if (!view) return;
    const f = view.filter;
    setSources(f.sources?.length === 1 ? f.sources[0]! : 'all');
    setMentor(f.mentor !== undefined ? String(f.mentor) : null);
    setLearnerText(f.learner ?? '');
    setSearchText(f.search ?? '');
    setFrom(f.from ?? '');
    setTo(f.to ?? '');
    setState(f.state ?? 'open');
  }

  // Focus starts in the queue (its keys work at once), and comes back to it when it would fall to the page (the open
  // item or a row that held it went away) — never taken from a field the admin is typing in.
  const listShown = queue.total > 0;
  useEffect(() => {
    if (listShown && (document.activeElement === document.body || !document.activeElement)) list.current?.focus();
  }, [listShown, openItem]);

  const offline = queue.sync?.error ?? (sync.data?.error || null);
  const shown = openItem;
  // Never read from the tenant and the last try failed: there is no queue to show, not an empty one.
  // The app's banner says the tenant cannot be reached: the queue only says how old its copy is.
  const bannerSaysWhy = useTenantReach().unreachable;
  const neverLoaded = !!offline && !queue.sync?.syncedAt && queue.total === 0 && !sync.isPending;

  // By the count where the header has room; under a narrow window, first among the filters (the header wraps there).
  const stateControl = (
    <SegmentedControl
      size="xs"
      value={state}
      onChange={(v) => setState(v as typeof state)}
      data={[
        { value: 'open', label: 'Open' },
        { value: 'reviewed', label: 'Reviewed' },
        { value: 'all', label: 'All' },
      ]}
      aria-label="Reviewed state"
    />
  );

  return (
    <Stack
      gap="sm"
      ref={screen}
      onKeyDown={onKeyDown}
      style={{ height: 'calc(100dvh - 60px - 2 * var(--mantine-spacing-lg))', minHeight: 0 }}
    >
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Group gap="xs">
          <Title order={2}>Review queue</Title>
          {!compact && stateControl}
          {!neverLoaded && (
            <Badge variant="light" data-testid="review-total">
              {queue.total.toLocaleString()} {state === 'all' ? 'items' : state}
            </Badge>
          )}
        </Group>
        <Group gap="xs">
          <Select
            size="xs"
            placeholder="Saved views"
            data={viewOptions}
            value={null}
            onChange={applyView}
            aria-label="Saved views"
            w={160}
          />
          <Button
            size="xs"
            variant="default"
            onClick={() => {
              const name = window.prompt('Name this view');
              if (name?.trim()) {
                saveView.mutate(
                  { name: name.trim(), filter },
                  { onError: (error) => notifyError('View not saved', error) },
                );
              }
            }}
          >
            Save view
          </Button>
          <Button size="xs" variant="default" onClick={() => void exportCsv()}>
            Export CSV
          </Button>
          <Button size="xs" variant="default" loading={sync.isPending} onClick={() => sync.mutate({})}>
            Refresh
          </Button>
          <Button size="xs" variant="subtle" onClick={() => setCheatSheet(true)} aria-label="Keyboard shortcuts">
            <Kbd size="xs">?</Kbd>
          </Button>
        </Group>
      </Group>
      {/* One row from 1400 wide: the text fields give way before anything wraps. */}
      <Group gap="xs" wrap="wrap" data-testid="review-filters">
        {compact && stateControl}
        <SegmentedControl
          size="xs"
          value={sources}
          onChange={setSources}
          data={[
            { value: 'all', label: 'All sources' },
            { value: 'Safety System', label: 'Safety' },
            { value: 'Moderation System', label: 'Moderation' },
            { value: 'Negative feedback', label: 'Feedback' },
          ]}
          aria-label="Source"
        />
        <Select
          size="xs"
          placeholder="Every mentor"
          data={mentorOptions}
          value={mentor}
          onChange={setMentor}
          clearable
          searchable
          aria-label="Mentor"
          style={{ flex: '1 1 150px', maxWidth: 240 }}
        />
        <TextInput
          ref={learnerBox}
          size="xs"
          placeholder="Username or email"
          value={learnerText}
          onChange={(e) => setLearnerText(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Escape') list.current?.focus();
          }}
          aria-label="Learner"
          style={{ flex: '1 1 120px', maxWidth: 220 }}
        />
        <TextInput
          ref={searchBox}
          size="xs"
          placeholder="Search text"
          value={searchText}
          onChange={(e) => setSearchText(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Escape') list.current?.focus();
          }}
          aria-label="Search text"
          style={{ flex: '1 1 110px', maxWidth: 200 }}
        />
        <DayInput size="xs" inlineLabel label="From" w={175} clearable value={from} onChange={setFrom} maxDay={to} />
        <DayInput size="xs" inlineLabel label="To" w={175} clearable value={to} onChange={setTo} minDay={from} />
      </Group>
      {offline && queue.sync?.syncedAt && bannerSaysWhy && (
        <SavedCopyNote asOf={queue.sync.syncedAt} data-testid="review-offline" />
      )}
      {offline && queue.sync?.syncedAt && !bannerSaysWhy && (
        <Alert
          color="yellow"
          variant="light"
          icon={<CloudOffIcon />}
          title="Showing the saved copy"
          role="status"
          data-testid="review-offline"
        >
          {offline.replace(/\.$/, '')}. Last fetched {formatAsOf(queue.sync.syncedAt)}.
        </Alert>
      )}
      {(queue.error || neverLoaded) && bannerSaysWhy && (!queue.error || isUnreachable(queue.error)) ? (
        <NotAvailableOffline />
      ) : (
        (queue.error || neverLoaded) && (
          <LoadErrorAlert
            title="The review queue could not be loaded"
            error={queue.error ?? new Error(offline!)}
            onRetry={() => sync.mutate({})}
          />
        )
      )}
      {!neverLoaded && (
        <div
          style={{
            display: 'flex',
            gap: 12,
            flex: 1,
            minHeight: 0,
            flexDirection: compact && shown ? 'column' : 'row',
          }}
        >
          <div
            style={{
              // Stacked under a narrow window, the list keeps three whole rows above the open item.
              flex: shown ? (compact ? `0 0 ${ROW * 3 + 2}px` : '0 0 42%') : 1,
              minHeight: 0,
              border: '1px solid var(--mantine-color-default-border)',
              borderRadius: 6,
            }}
          >
            {queue.total === 0 && !queue.loading ? (
              <Stack p="md" gap={4}>
                <Text fw={500}>Nothing to review</Text>
                <Text size="sm" c="dimmed">
                  {sync.isPending
                    ? 'Reading the tenant’s moderation and safety logs and ratings…'
                    : 'No log or rated-down conversation matches these filters.'}
                </Text>
              </Stack>
            ) : (
              <VirtualList
                ref={list}
                count={queue.total}
                rowHeight={ROW}
                label="Review queue"
                testId="review-list"
                activeDescendant={current ? `review-row-${current.id}` : undefined}
                onRange={queue.onRange}
                renderRow={(i) => (
                  <UnstyledButton
                    component="div"
                    tabIndex={-1}
                    w="100%"
                    onClick={() => {
                      setCursor(i);
                      const item = queue.row(i);
                      if (item) setOpenItem(item);
                    }}
                  >
                    <Row item={queue.row(i)} active={i === cursor} />
                  </UnstyledButton>
                )}
              />
            )}
          </div>
          {shown && (
            <div style={{ flex: 1, minWidth: 0, minHeight: 0, overflow: 'hidden' }}>
              <ReviewPane
                key={shown.id}
                item={shown}
                focusConversation={focusConversation}
                onMark={() => toggleReviewed(shown)}
                onDelete={() => setDeleting(shown)}
                onAdjust={(uniqueId) => adjust(shown, uniqueId)}
                onTrace={(session) => void openTrace(session)}
                onSession={(id) => setSession({ learner: shown.learner, session: id })}
                onTicketNote={() => setNoting(shown)}
              />
            </div>
          )}
        </div>
      )}
      {!shown && queue.total > 0 && (
        <Text size="xs" c="dimmed">
          <Kbd size="xs">j</Kbd>/<Kbd size="xs">k</Kbd> to move, <Kbd size="xs">Enter</Kbd> to open,{' '}
          <Kbd size="xs">?</Kbd> for every key
        </Text>
      )}
      <ConfirmModal
        target={deleting}
        title="Delete this log?"
        mutation={remove}
        failedTitle="Not deleted"
        confirmLabel="Delete on the tenant"
        onClose={() => {
          setDeleting(null);
          list.current?.focus();
        }}
        onConfirm={(target, close) =>
          remove.mutate(
            { id: target.id },
            {
              onSuccess: () => {
                if (openItem?.id === target.id) setOpenItem(null);
                close();
              },
            },
          )
        }
      >
        {(target) => (
          <Text size="sm">
            The {target.source.toLowerCase()} log “{target.reason}” on {target.learner}&apos;s message is deleted on the
            tenant for everyone. This cannot be undone.
          </Text>
        )}
      </ConfirmModal>
      <TraceModal traceId={traceId} onClose={() => setTraceId(null)} />
      <TicketNoteModal item={noting} onClose={() => setNoting(null)} />
      {tenantId && <SessionModal profileId={tenantId} open={session} onClose={() => setSession(null)} />}
      <CheatSheet opened={cheatSheet} onClose={() => setCheatSheet(false)} shortcuts={REVIEW_SHORTCUTS} />
    </Stack>
  );
}
