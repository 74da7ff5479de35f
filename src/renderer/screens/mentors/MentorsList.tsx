import { Alert, Button, Checkbox, Group, Pagination, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import type { Mentor } from '../../../shared/contract';
import { MentorIcon, PlusIcon, SearchIcon, UploadIcon, WarningIcon } from '../../components/icons';
import { useWriteRefusal, WriteButton } from '../../resources/writeGate';
import { useActiveTenant } from '../../tenants/tenantContext';
import { formatCount } from '../../lib/format';
import { DeleteMentorModal } from './DeleteMentorModal';
import { ListFrame, ListTableArea } from '../../components/ListFrame';
import { MentorBulkModal, type BulkTarget } from './MentorBulkModal';
import { MentorFormModal, type MentorEditorTarget } from './MentorFormModal';
import { MentorRow } from './MentorRow';
import { ImportMentorModal } from './MentorTransfer';
import { useMentors } from './useMentors';

const PAGE_SIZE = 50;

/** The active tenant's mentors: search, create, edit, delete; every row takes dropped files to train it. */
export function MentorsList() {
  const { profile: tenant, known: tenantKnown } = useActiveTenant();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 250);
  const { query, refresh, refreshing } = useMentors(tenant?.id, debounced);
  const [editor, setEditor] = useState<MentorEditorTarget | null>(null);
  const [deleting, setDeleting] = useState<Mentor | null>(null);
  const [importing, setImporting] = useState(false);
  const [page, setPage] = useState(1);
  // Chosen for a change of settings, by unique id; kept per tenant, and only while the mentor is listed.
  const [chosen, setChosen] = useState<{ profileId: string | undefined; ids: Set<string> }>({
    profileId: tenant?.id,
    ids: new Set(),
  });
  const [bulk, setBulk] = useState<BulkTarget | null>(null);
  // The saved copy (the tenant out of reach, known from this list's refresh or any other call): nothing may change.
  const writeRefusal = useWriteRefusal(query.data?.freshness);
  const mentors = query.data?.mentors ?? [];
  const selected = chosen.profileId === tenant?.id ? mentors.filter((m) => chosen.ids.has(m.uniqueId)) : [];
  const allChosen = mentors.length > 0 && selected.length === mentors.length;
  const choose = (ids: string[], on: boolean) =>
    setChosen((previous) => {
      const next = new Set(previous.profileId === tenant?.id ? previous.ids : []);
      for (const id of ids) {
        if (on) next.add(id);
        else next.delete(id);
      }
      return { profileId: tenant?.id, ids: next };
    });
  const pages = Math.max(1, Math.ceil(mentors.length / PAGE_SIZE));
  const shown = mentors.slice((Math.min(page, pages) - 1) * PAGE_SIZE, Math.min(page, pages) * PAGE_SIZE);

  return (
    <Stack gap="lg" maw={1200}>
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1} size="h2">
            Mentors
          </Title>
          <Text c="dimmed" size="sm">
            {tenant ? (
              <>
                Mentors of <strong>{tenant.name}</strong>. Drop files or folders on a mentor to train it.
              </>
            ) : (
              'The mentors of the active tenant.'
            )}
          </Text>
        </div>
        <Group gap="xs" wrap="nowrap">
          <WriteButton
            refusal={writeRefusal}
            variant="default"
            leftSection={<UploadIcon size={16} />}
            onClick={() => setImporting(true)}
            disabled={!tenant}
          >
            Import mentor…
          </WriteButton>
          <WriteButton
            refusal={writeRefusal}
            leftSection={<PlusIcon size={16} />}
            onClick={() => setEditor({ mode: 'create' })}
            disabled={!tenant}
          >
            New mentor
          </WriteButton>
        </Group>
      </Group>

      {!tenant && tenantKnown && (
        <Alert color="yellow" icon={<WarningIcon />} title="No active tenant">
          Add a tenant in Settings → Tenants, or make one active from the top bar.
        </Alert>
      )}
      {tenant && (
        <ListFrame
          what="mentors"
          freshness={query.data?.freshness}
          refresh={{ refreshing, onRefresh: () => void refresh() }}
          toolbarStart={
            <TextInput
              aria-label="Search mentors"
              placeholder="Search by name or description"
              leftSection={<SearchIcon size={16} />}
              value={search}
              onChange={(event) => {
                setSearch(event.currentTarget.value);
                setPage(1);
              }}
              style={{ flex: '1 1 240px', maxWidth: 360 }}
              type="search"
            />
          }
          count={query.data && `${formatCount(mentors.length)} ${mentors.length === 1 ? 'mentor' : 'mentors'}`}
          beforeBody={
            selected.length > 0 && (
              <Group
                gap="sm"
                justify="space-between"
                px="sm"
                py={6}
                bg="var(--mantine-primary-color-light)"
                style={{ borderRadius: 6 }}
                role="region"
                aria-label="Selected mentors"
              >
                <Text size="sm" fw={500}>
                  {formatCount(selected.length)} {selected.length === 1 ? 'mentor' : 'mentors'} selected
                  {debounced && allChosen ? ' (all matching the search)' : ''}
                </Text>
                <Group gap="xs">
                  <Button
                    size="xs"
                    variant="default"
                    onClick={() =>
                      choose(
                        mentors.map((m) => m.uniqueId),
                        false,
                      )
                    }
                  >
                    Clear
                  </Button>
                  <WriteButton
                    refusal={writeRefusal}
                    size="xs"
                    onClick={() =>
                      tenant &&
                      setBulk({
                        profileId: tenant.id,
                        mentors: selected.map(({ uniqueId, name }) => ({ uniqueId, name })),
                      })
                    }
                  >
                    Change settings…
                  </WriteButton>
                </Group>
              </Group>
            )
          }
          loading={query.isPending}
          error={
            query.isError
              ? { title: 'Mentors could not be loaded', error: query.error, onRetry: () => void query.refetch() }
              : null
          }
          empty={
            query.isSuccess && mentors.length === 0
              ? {
                  icon: <MentorIcon size={28} />,
                  message: debounced
                    ? 'No mentor matches this search.'
                    : 'No mentors yet. Create one, then drop course material on it.',
                  action: !debounced && (
                    <WriteButton
                      refusal={writeRefusal}
                      size="xs"
                      variant="light"
                      onClick={() => setEditor({ mode: 'create' })}
                    >
                      Create a mentor
                    </WriteButton>
                  ),
                }
              : null
          }
          footer={
            pages > 1 && (
              <Group justify="flex-end">
                <Pagination size="sm" total={pages} value={Math.min(page, pages)} onChange={setPage} />
              </Group>
            )
          }
        >
          {mentors.length > 0 && (
            <ListTableArea minWidth={640} label="Mentors">
              <Table verticalSpacing="sm" highlightOnHover aria-label="Mentors" data-testid="mentors-table">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th w={40}>
                      <Checkbox
                        aria-label={debounced ? 'Select all mentors matching the search' : 'Select all mentors'}
                        checked={allChosen}
                        indeterminate={selected.length > 0 && !allChosen}
                        onChange={(event) =>
                          choose(
                            mentors.map((m) => m.uniqueId),
                            event.currentTarget.checked,
                          )
                        }
                      />
                    </Table.Th>
                    <Table.Th>Name</Table.Th>
                    <Table.Th w={150}>Who can use it</Table.Th>
                    <Table.Th w={175}>Updated</Table.Th>
                    <Table.Th w={96} style={{ textAlign: 'right' }}>
                      Actions
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody style={{ opacity: query.isPlaceholderData ? 0.6 : 1 }}>
                  {shown.map((mentor) => (
                    <MentorRow
                      key={mentor.uniqueId}
                      profileId={tenant.id}
                      mentor={mentor}
                      onEdit={() => setEditor({ mode: 'edit', mentor })}
                      onDelete={() => setDeleting(mentor)}
                      writeRefusal={writeRefusal}
                      selected={chosen.profileId === tenant.id && chosen.ids.has(mentor.uniqueId)}
                      onSelect={(on) => choose([mentor.uniqueId], on)}
                    />
                  ))}
                </Table.Tbody>
              </Table>
            </ListTableArea>
          )}
        </ListFrame>
      )}

      {tenant && (
        <>
          <MentorFormModal profileId={tenant.id} target={editor} onClose={() => setEditor(null)} />
          <DeleteMentorModal profileId={tenant.id} mentor={deleting} onClose={() => setDeleting(null)} />
          <ImportMentorModal
            key={tenant.id}
            profileId={tenant.id}
            tenantName={tenant.name}
            opened={importing}
            onClose={() => setImporting(false)}
          />
          <MentorBulkModal target={bulk} onClose={() => setBulk(null)} />
        </>
      )}
    </Stack>
  );
}
