import { Collapse, Group, Pagination, SegmentedControl, Stack, Table, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { DOCUMENT_STATUSES, type DocumentStatus, type MentorDocument } from '../../../shared/contract';
import { FileIcon, SearchIcon, UploadIcon } from '../../components/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { notifyError } from '../../components/notify';
import { useBridge } from '../../bridge/BridgeContext';
import { callKey } from '../../queries/useCall';
import { DropZone } from '../../train/DropZone';
import { formatCount } from '../../lib/format';
import { useTrainFlow, type MentorTarget } from '../../train/TrainFlowContext';
import { DeleteDocumentModal } from './DeleteDocumentModal';
import { DocumentRow } from './DocumentRow';
import { STATUS_INFO } from './documentStatus';
import { ListFrame, ListTableArea } from '../../components/ListFrame';
import { useWriteRefusal, WriteButton } from '../../resources/writeGate';
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
  const queryClient = useQueryClient();
  const [refreshing, setRefreshing] = useState(false);
  // The refresh button asks the tenant now (a plain refetch would read the engine's cache again).
  async function refresh() {
    setRefreshing(true);
    try {
      queryClient.setQueryData(
        callKey('documents.list', input),
        await bridge.call('documents.list', { ...input, refresh: true }),
      );
    } catch (error) {
      notifyError('Documents could not be refreshed', error);
    } finally {
      setRefreshing(false);
    }
  }
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
  const writeRefusal = useWriteRefusal(documents.data?.freshness);
  /** A status's count, only when the documents were read: unread is not "0". */
  const counted = (label: string, count: number) => (documents.data ? `${label} ${formatCount(count)}` : label);
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
  const empty = documents.isSuccess && list.length === 0;
  const showDropZone = adding || empty;

  return (
    <Stack gap="md">
      <ListFrame
        what="documents"
        freshness={documents.data?.freshness}
        refresh={{ refreshing, onRefresh: () => void refresh() }}
        toolbarStart={
          <>
            <TextInput
              aria-label="Search documents"
              placeholder="Search by name"
              leftSection={<SearchIcon size={16} />}
              style={{ flex: '1 1 200px', maxWidth: 300 }}
              type="search"
              value={search}
              onChange={(event) => {
                setSearch(event.currentTarget.value);
                setPage(1);
              }}
            />
            <SegmentedControl
              aria-label="Filter documents by status"
              value={filter}
              onChange={(value) => {
                setFilter(value as Filter);
                setPage(1);
              }}
              data={[
                { value: 'all', label: counted('All', list.length) },
                ...DOCUMENT_STATUSES.map((status) => ({
                  value: status,
                  label: counted(STATUS_INFO[status].label, counts[status]),
                })),
              ]}
            />
          </>
        }
        toolbarEnd={
          <WriteButton
            refusal={writeRefusal}
            leftSection={<UploadIcon size={16} />}
            variant={showDropZone && !writeRefusal ? 'light' : 'filled'}
            onClick={() => setAdding((open) => !open)}
            aria-expanded={showDropZone && !writeRefusal}
          >
            Add documents…
          </WriteButton>
        }
        beforeBody={
          !empty && (
            <Collapse expanded={adding && !writeRefusal}>
              <DropZone mentor={mentor} compact />
            </Collapse>
          )
        }
        loading={documents.isPending}
        error={
          documents.isError
            ? {
                title: 'Documents could not be loaded',
                error: documents.error,
                onRetry: () => void documents.refetch(),
              }
            : null
        }
        empty={
          empty
            ? {
                icon: <FileIcon size={28} />,
                message: 'No documents yet. Drop course material below to train this mentor.',
              }
            : documents.isSuccess && filtered.length === 0
              ? { message: 'No documents match.' }
              : null
        }
        footer={
          <>
            {empty && <DropZone mentor={mentor} />}
            {pages > 1 && (
              <Group justify="space-between">
                <Text size="xs" c="dimmed">
                  {formatCount(filtered.length)} documents
                </Text>
                <Pagination size="sm" total={pages} value={current} onChange={setPage} />
              </Group>
            )}
          </>
        }
      >
        {shown.length > 0 && (
          <ListTableArea minWidth={700} label="Documents">
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
                    writeRefusal={writeRefusal}
                  />
                ))}
              </Table.Tbody>
            </Table>
          </ListTableArea>
        )}
      </ListFrame>

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
