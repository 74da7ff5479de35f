import {
  Alert,
  Badge,
  Drawer,
  Group,
  MultiSelect,
  Pagination,
  Paper,
  ScrollArea,
  Select,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import type { ConversationRow } from '../../../shared/contract';
import { errorMessage } from '../../bridge/errors';
import { LoadErrorAlert } from '../../components/LoadErrorAlert';
import { useDashboardFilters } from './DashboardFilters';
import { FilterBar } from './FilterBar';
import { asLabel, formatInteger, formatWhen } from './format';
import { AsOf, OfflineBanner } from './OverviewTab';
import { isTenantDown, TenantDownBanner } from './PanelState';
import { useAnalytics } from './useAnalytics';

const PAGE_SIZE = 25;
/** Dates, learners and mentors stay on one line; a narrow window scrolls the table sideways instead. */
const NO_WRAP = { whiteSpace: 'nowrap' } as const;
const SENTIMENT_COLOR: Record<string, string> = { positive: 'teal', neutral: 'gray', negative: 'red' };

/** The chat-history browser: conversations filtered by mentor, sentiment, topics, learner and dates. */
export function ConversationsTab() {
  const { input, filters } = useDashboardFilters();
  const options = useAnalytics('analytics.filters', { parts: ['topics'] });
  const [sentiment, setSentiment] = useState<string | null>(null);
  const [topics, setTopics] = useState<string[]>([]);
  const [learner, setLearner] = useState('');
  const [debouncedLearner] = useDebouncedValue(learner.trim(), 400);
  // The page belongs to the filters it was chosen under: another range, zone or mentor starts again at page 1.
  const shared = JSON.stringify(input);
  const [paging, setPaging] = useState({ shared, page: 1 });
  const page = paging.shared === shared ? paging.page : 1;
  const setPage = (next: number) => setPaging({ shared, page: next });
  const [open, setOpen] = useState<ConversationRow | null>(null);
  const query = {
    ...input,
    page,
    pageSize: PAGE_SIZE,
    ...(sentiment ? { sentiment: sentiment as 'positive' } : {}),
    ...(topics.length ? { topics } : {}),
    ...(debouncedLearner ? { learner: debouncedLearner } : {}),
  };
  const list = useAnalytics('analytics.conversations', query);
  const pages = Math.max(1, Math.ceil((list.data?.count ?? 0) / PAGE_SIZE));
  const reset =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      setPage(1);
    };

  return (
    <Stack gap="md">
      <FilterBar department={false} />
      <Group gap="sm" align="flex-end">
        <Select
          label="Sentiment"
          size="xs"
          w={150}
          clearable
          placeholder="Any"
          data={['positive', 'neutral', 'negative'].map((value) => ({ value, label: asLabel(value) }))}
          value={sentiment}
          onChange={reset(setSentiment)}
        />
        <MultiSelect
          label="Topics"
          size="xs"
          w={300}
          searchable
          clearable
          placeholder="Any topic"
          data={options.data?.topics ?? []}
          value={topics}
          onChange={reset(setTopics)}
        />
        <TextInput
          label="Learner (username)"
          size="xs"
          w={200}
          value={learner}
          onChange={(e) => {
            setLearner(e.currentTarget.value);
            setPage(1);
          }}
        />
      </Group>
      {list.error && !list.data && isTenantDown(list.error) ? (
        <TenantDownBanner error={list.error} />
      ) : (
        <OfflineBanner freshness={[list.data?.freshness]} />
      )}
      {list.data?.notes.map((note) => (
        <Text key={note} size="xs" c="dimmed" data-testid="conversation-note">
          {note}
        </Text>
      ))}
      <Group justify="space-between">
        <Text size="sm" c="dimmed" data-testid="conversation-count">
          {list.data ? `${formatInteger(list.data.count)} conversations` : ' '}
        </Text>
        <AsOf freshness={[list.data?.freshness]} />
      </Group>
      {list.error && !list.data && isTenantDown(list.error) ? null : list.error && !list.data ? (
        <LoadErrorAlert
          title="Conversations could not be loaded"
          error={list.error}
          onRetry={() => void list.refetch()}
        />
      ) : (
        <Paper withBorder radius="md">
          <ScrollArea>
            <Table highlightOnHover fz="sm" aria-label="Conversations" data-testid="conversations">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Started</Table.Th>
                  <Table.Th>Learner</Table.Th>
                  <Table.Th>Mentor</Table.Th>
                  <Table.Th>Topics</Table.Th>
                  <Table.Th>Sentiment</Table.Th>
                  <Table.Th>Rating</Table.Th>
                  <Table.Th>Messages</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.data
                  ? list.data.rows.map((row) => (
                      <Table.Tr
                        key={row.id}
                        style={{ cursor: 'pointer' }}
                        tabIndex={0}
                        onClick={() => setOpen(row)}
                        onKeyDown={(e) => e.key === 'Enter' && setOpen(row)}
                      >
                        <Table.Td style={NO_WRAP}>{formatWhen(row.startedAt, filters.timeZone)}</Table.Td>
                        <Table.Td style={NO_WRAP}>{row.learner}</Table.Td>
                        <Table.Td style={NO_WRAP}>{row.mentor || row.mentorId.slice(0, 8)}</Table.Td>
                        <Table.Td>{row.topics.join(', ')}</Table.Td>
                        <Table.Td>
                          <Badge size="sm" variant="light" color={SENTIMENT_COLOR[row.sentiment] ?? 'gray'}>
                            {asLabel(row.sentiment)}
                          </Badge>
                        </Table.Td>
                        <Table.Td>{row.rating === null ? '—' : row.rating > 0 ? 'Up' : 'Down'}</Table.Td>
                        <Table.Td>{row.messages}</Table.Td>
                      </Table.Tr>
                    ))
                  : Array.from({ length: 8 }, (_, i) => (
                      <Table.Tr key={i}>
                        <Table.Td colSpan={7}>
                          <Skeleton height={18} />
                        </Table.Td>
                      </Table.Tr>
                    ))}
              </Table.Tbody>
            </Table>
          </ScrollArea>
          {list.data && !list.data.rows.length ? (
            <Text c="dimmed" ta="center" p="lg">
              No conversations match these filters.
            </Text>
          ) : null}
        </Paper>
      )}
      <Group justify="center">
        <Pagination total={pages} value={page} onChange={setPage} size="sm" />
      </Group>
      <TranscriptDrawer row={open} timeZone={filters.timeZone} onClose={() => setOpen(null)} />
    </Stack>
  );
}

function TranscriptDrawer({
  row,
  timeZone,
  onClose,
}: {
  row: ConversationRow | null;
  timeZone: string;
  onClose(): void;
}) {
  const transcript = useAnalytics('analytics.conversation', { id: row?.id ?? '-' }, { enabled: !!row });
  return (
    <Drawer
      opened={!!row}
      onClose={onClose}
      position="right"
      size="lg"
      title={row ? `${row.learner} · ${row.mentor || 'mentor'} · ${formatWhen(row.startedAt, timeZone)}` : ''}
    >
      {row ? (
        <Stack gap="sm" data-testid="transcript">
          <Group gap={6}>
            {row.topics.map((t) => (
              <Badge key={t} variant="light" size="sm">
                {t}
              </Badge>
            ))}
            <Badge variant="outline" size="sm" color={SENTIMENT_COLOR[row.sentiment] ?? 'gray'}>
              {asLabel(row.sentiment)}
            </Badge>
            <Text size="xs" c="dimmed">
              {row.model}
            </Text>
          </Group>
          {transcript.error ? <Alert color="red">{errorMessage(transcript.error)}</Alert> : null}
          {transcript.data && transcript.data.conversation.id === row.id
            ? transcript.data.transcript.map((m, i) => (
                <Paper
                  key={i}
                  p="sm"
                  radius="md"
                  withBorder
                  bg={m.role === 'human' ? 'var(--mantine-color-blue-light)' : undefined}
                  ml={m.role === 'human' ? 0 : 'xl'}
                  mr={m.role === 'human' ? 'xl' : 0}
                >
                  <Text size="xs" c="dimmed">
                    {m.role === 'human' ? row.learner : m.role === 'ai' ? row.mentor || 'Mentor' : 'Other'} ·{' '}
                    {formatWhen(m.at, timeZone)}
                  </Text>
                  <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                    {m.content}
                  </Text>
                </Paper>
              ))
            : Array.from({ length: 4 }, (_, i) => <Skeleton key={i} height={60} radius="md" />)}
        </Stack>
      ) : null}
    </Drawer>
  );
}
