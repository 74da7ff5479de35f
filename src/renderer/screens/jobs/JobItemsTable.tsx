import { Badge, Group, Pagination, Paper, SegmentedControl, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ItemState, type Job } from '../../../shared/contract';
import { useBridge } from '../../bridge/BridgeContext';
import { errorMessage } from '../../bridge/errors';
import { callKey } from '../../queries/useCall';
import { SearchIcon } from '../../components/icons';
import { formatBytes, formatClock, formatCount } from '../../lib/format';
import { IMPORT_WORDS_BY_JOB_KIND, outcomeWords } from '../../../shared/import-summary';
import { hasBytes, isActive, ITEM_NOUNS, ITEM_STATE_INFO } from '../../lib/jobPresentation';

const PAGE_SIZE = 50;
/** While a job runs, the visible page is refreshed on this beat rather than on every progress tick. */
const LIVE_REFRESH_MS = 2_000;

/** Every item of the job (files for training), filterable by state, a page at a time. */
export function JobItemsTable({ job }: { job: Job }) {
  const bridge = useBridge();
  const [state, setState] = useState<string>('all');
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 250);
  const [page, setPage] = useState(1);
  const input = {
    id: job.id,
    ...(state !== 'all' ? { states: [ItemState.parse(state)] } : {}),
    ...(debounced ? { search: debounced } : {}),
    limit: PAGE_SIZE,
    offset: (page - 1) * PAGE_SIZE,
  };
  const items = useQuery({
    queryKey: callKey('jobs.items', input),
    queryFn: () => bridge.call('jobs.items', input),
    placeholderData: keepPreviousData,
    refetchInterval: isActive(job.state) ? LIVE_REFRESH_MS : false,
  });
  const total = items.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const [one, many] = ITEM_NOUNS[job.kind];
  const noun = one.charAt(0).toUpperCase() + one.slice(1);
  const nouns = many.charAt(0).toUpperCase() + many.slice(1);
  // Rows and replies have no size: the column would read "0 B" all the way down.
  const sized = hasBytes(job.progress);
  const columns = sized ? 6 : 5;
  // A people file's steps in the words its import dialog uses ("Would be enrolled", "Repeated in the file").
  const words = IMPORT_WORDS_BY_JOB_KIND[job.kind];
  const stepOf = (phase: string) => {
    const said = words && outcomeWords(phase, words);
    return said ? said.charAt(0).toUpperCase() + said.slice(1) : phase;
  };

  return (
    <Paper withBorder radius="md" p="lg" component="section" aria-labelledby="job-items">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Title order={2} size="h4" id="job-items">
            {nouns}
          </Title>
          <Group gap="sm">
            <SegmentedControl
              aria-label="Filter by state"
              size="xs"
              value={state}
              onChange={(value) => {
                setState(value);
                setPage(1);
              }}
              data={[
                { value: 'all', label: 'All' },
                ...ItemState.options.map((value) => ({ value, label: ITEM_STATE_INFO[value].label })),
              ]}
            />
            <TextInput
              aria-label={`Search ${many}`}
              placeholder="Search"
              size="xs"
              type="search"
              leftSection={<SearchIcon size={14} />}
              value={search}
              onChange={(event) => {
                setSearch(event.currentTarget.value);
                setPage(1);
              }}
            />
          </Group>
        </Group>
        {/* Fits the window from 1000 px wide; narrower, the table scrolls rather than squeezing its words. */}
        <Table.ScrollContainer minWidth={600}>
          <Table
            verticalSpacing={6}
            fz="sm"
            highlightOnHover
            aria-label={`${nouns} of this job`}
            data-testid="job-items"
          >
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{noun}</Table.Th>
                <Table.Th w={90}>State</Table.Th>
                <Table.Th w={words ? 160 : 100}>Step</Table.Th>
                {sized && (
                  <Table.Th w={80} ta="right">
                    Size
                  </Table.Th>
                )}
                <Table.Th w={80} ta="right">
                  Attempts
                </Table.Th>
                <Table.Th w={110}>Updated</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody style={{ opacity: items.isPlaceholderData ? 0.6 : 1 }}>
              {items.data?.items.map((item) => (
                <Table.Tr key={item.id}>
                  <Table.Td style={{ maxWidth: 0 }}>
                    <Text size="sm" truncate="start" title={item.label}>
                      {item.label}
                    </Text>
                    {item.error && (
                      <Text size="xs" c={item.state === 'failed' ? 'red' : 'dimmed'} lineClamp={2}>
                        {item.error}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Badge size="sm" variant="light" radius="sm" color={ITEM_STATE_INFO[item.state].color}>
                      {ITEM_STATE_INFO[item.state].label}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Text size="xs" c="dimmed">
                      {stepOf(item.phase)}
                    </Text>
                  </Table.Td>
                  {sized && <Table.Td ta="right">{formatBytes(item.bytes)}</Table.Td>}
                  <Table.Td ta="right">{formatCount(item.attempts)}</Table.Td>
                  <Table.Td>
                    <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                      {formatClock(item.updatedAt)}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ))}
              {items.isError && (
                <Table.Tr>
                  <Table.Td colSpan={columns}>
                    <Text size="sm" c="red">
                      {errorMessage(items.error)}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              )}
              {items.data?.items.length === 0 && (
                <Table.Tr>
                  <Table.Td colSpan={columns}>
                    <Text size="sm" c="dimmed" ta="center" py="sm">
                      Nothing here.
                    </Text>
                  </Table.Td>
                </Table.Tr>
              )}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        {pages > 1 && (
          <Group justify="space-between">
            <Text size="xs" c="dimmed">
              {formatCount(total)} {total === 1 ? one : many}
            </Text>
            <Pagination size="sm" total={pages} value={Math.min(page, pages)} onChange={setPage} />
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
