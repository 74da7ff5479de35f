import {
  Button,
  Collapse,
  Group,
  Pagination,
  SegmentedControl,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useState } from 'react';
import { DOCUMENT_STATUSES, type DocumentStatus, type MentorDocument } from '../../../shared/contract';
import { LoadErrorAlert } from '../../components/LoadErrorAlert';
import { SearchIcon, UploadIcon } from '../../components/icons';
import { useQuery } from '@tanstack/react-query';
import { useBridge } from '../../bridge/BridgeContext';
import { callKey } from '../../queries/useCall';
import { DropZone } from '../../train/DropZone';
import { formatCount } from '../../lib/format';
import { useTrainFlow, type MentorTarget } from '../../train/TrainFlowContext';
import { DeleteDocumentModal } from './DeleteDocumentModal';
import { DOCUMENT_COLUMNS, DocumentRow } from './DocumentRow';
import { STATUS_INFO } from './documentStatus';
import { FreshnessNote, OfflineBanner } from '../../components/FreshnessBar';
import { RetrainModal } from './RetrainModal';

const PAGE_SIZE = 50;
/**
 * While the tab is open the list is asked for again now and then (often while something trains). It costs a
 * cache read: the engine decides when to go to the tenant, and says so with documents.changed.
 */
const PENDING_POLL_MS = 4_000;
const IDLE_POLL_MS = 15_000;

type Filter = DocumentStatus | 'all';

/** A mentor's documents: filter by status, search, per-row actions, and "Add documents…". */
export function DocumentsPanel({ mentor }: { mentor: MentorTarget }) {
  const bridge = useBridge();
  const input = { profileId: mentor.profileId, mentor: mentor.uniqueId };
  const documents = useQuery({
    queryKey: callKey('documents.list', input),
    queryFn: () => bridge.call('documents.list', input),
    // The engine's cache answers at once and knows when to ask the tenant; always ask it when the tab opens.
    staleTime: 0,
    refetchInterval: (query) =>
      query.state.data?.documents.some((document) => document.status === 'pending') ? PENDING_POLL_MS : IDLE_POLL_MS,
  });
  const list = documents.data?.documents ?? [];
  const [filter, setFilter] = useState<Filter>('all');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [adding, setAdding] = useState(false);
  // Files were sent for training: the drop zone the admin opened for them is put away.
  const { started } = useTrainFlow();
  const [startedSeen, setStartedSeen] = useState(started);
  if (startedSeen !== started) {
    setStartedSeen(started);
    setAdding(false);
  }
  const [retraining, setRetraining] = useState<MentorDocument | null>(null);
  const [deleting, setDeleting] = useState<MentorDocument | null>(null);

  const counts = Object.fromEntries(
    DOCUMENT_STATUSES.map((status) => [status, list.filter((document) => document.status === status).length]),
  ) as Record<DocumentStatus, number>;
  const needle = search.trim().toLowerCase();
  const filtered = list.filter(
    (document) =>
      (filter === 'all' || document.status === filter) && (!needle || document.name.toLowerCase().includes(needle)),
  );
  const pages = Math.max(1, Math.ceil(filtered.length / PAGE_SIZE));
  const current = Math.min(page, pages);
  const shown = filtered.slice((current - 1) * PAGE_SIZE, current * PAGE_SIZE);
  const showDropZone = adding || (documents.isSuccess && list.length === 0);

  return (
    <Stack gap="md">
      <OfflineBanner freshness={documents.data?.freshness} />
      <Group justify="space-between" wrap="wrap" gap="sm">
        <SegmentedControl
          aria-label="Filter documents by status"
          value={filter}
          onChange={(value) => {
            setFilter(value as Filter);
            setPage(1);
          }}
          data={[
            { value: 'all', label: `All ${formatCount(list.length)}` },
            ...DOCUMENT_STATUSES.map((status) => ({
              value: status,
              label: `${STATUS_INFO[status].label} ${formatCount(counts[status])}`,
            })),
          ]}
          size="xs"
        />
        <Group gap="sm" wrap="nowrap">
          <TextInput
            aria-label="Search documents"
            placeholder="Search by name"
            leftSection={<SearchIcon size={14} />}
            size="xs"
            type="search"
            value={search}
            onChange={(event) => {
              setSearch(event.currentTarget.value);
              setPage(1);
            }}
          />
          <FreshnessNote
            freshness={documents.data?.freshness}
            refreshing={documents.isFetching}
            onRefresh={() => void documents.refetch()}
            what="documents"
          />
          <Button
            size="xs"
            leftSection={<UploadIcon size={14} />}
            variant={showDropZone ? 'light' : 'filled'}
            onClick={() => setAdding((open) => !open)}
            aria-expanded={showDropZone}
          >
            Add documents…
          </Button>
        </Group>
      </Group>

      {documents.isSuccess && list.length === 0 ? (
        <DropZone mentor={mentor} />
      ) : (
        <Collapse expanded={adding}>
          <DropZone mentor={mentor} compact />
        </Collapse>
      )}

      {documents.isPending && (
        <Stack gap="xs" aria-busy="true" aria-label="Loading documents">
          {[0, 1, 2].map((row) => (
            <Skeleton key={row} height={40} radius="sm" />
          ))}
        </Stack>
      )}
      {documents.isError && (
        <LoadErrorAlert
          title="Documents could not be loaded"
          error={documents.error}
          onRetry={() => void documents.refetch()}
        />
      )}
      {list.length > 0 && (
        <Table.ScrollContainer minWidth={700}>
          <Table
            layout="fixed"
            verticalSpacing="xs"
            highlightOnHover
            aria-label="Documents"
            data-testid="documents-table"
          >
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th w={56}>Type</Table.Th>
                <Table.Th w={108}>Status</Table.Th>
                <Table.Th w={70} ta="right">
                  Tokens
                </Table.Th>
                <Table.Th w={70}>Access</Table.Th>
                <Table.Th w={170}>Last trained</Table.Th>
                <Table.Th w={76} ta="right">
                  Actions
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {shown.map((document) => (
                <DocumentRow
                  key={document.id}
                  profileId={mentor.profileId}
                  mentor={mentor.uniqueId}
                  document={document}
                  onRetrain={() => setRetraining(document)}
                  onDelete={() => setDeleting(document)}
                />
              ))}
              {shown.length === 0 && (
                <Table.Tr>
                  <Table.Td colSpan={DOCUMENT_COLUMNS}>
                    <Text size="sm" c="dimmed" ta="center" py="md">
                      No documents match.
                    </Text>
                  </Table.Td>
                </Table.Tr>
              )}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {pages > 1 && (
        <Group justify="space-between">
          <Text size="xs" c="dimmed">
            {formatCount(filtered.length)} documents
          </Text>
          <Pagination size="sm" total={pages} value={current} onChange={setPage} />
        </Group>
      )}

      <RetrainModal
        profileId={mentor.profileId}
        mentor={mentor.uniqueId}
        document={retraining}
        onClose={() => setRetraining(null)}
      />
      <DeleteDocumentModal
        profileId={mentor.profileId}
        mentor={mentor}
        document={deleting}
        onClose={() => setDeleting(null)}
      />
    </Stack>
  );
}
