import {
  Alert,
  Anchor,
  Badge,
  Button,
  Checkbox,
  Group,
  Pagination,
  Stack,
  Table,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { Fragment, useState, type ComponentType } from 'react';
import classes from './ResourceList.module.css';
import { asSentence } from '../lib/sentence';
import { expiryOf, type ResourceRecord } from '../../shared/contract';
import {
  importRefusal,
  pluralOf,
  recordIdOf,
  type ColumnDeclaration,
  type ResourceDeclaration,
  type ResourceKind,
} from '../../shared/resources';
import { ConfirmModal } from '../components/ConfirmModal';
import { EditIcon, PlusIcon, SearchIcon, TrashIcon } from '../components/icons';
import { notifyError, notifySuccess } from '../components/notify';
import { formatCount, formatDateTime } from '../lib/format';
import { useCall, useMutationCall } from '../queries/useCall';
import { ListFrame, ListTableArea } from '../components/ListFrame';

import { maskedText } from './DescribedFields';
import { ListFilter } from './ListFilter';
import { NarrowingPills, useListFilters } from './ListNarrowing';
import { readableValue } from './readable';
import { useShownValue } from './mentor-refs';
import { ResourceFormModal, type FormTarget } from './ResourceFormModal';
import { ResourceImportModal } from './ResourceImportModal';
import { RecordDrawer } from './RecordDrawer';
import { GrantCell } from './GrantView';
import { useCountColumn } from './CountColumn';
import { RevealOnceModal } from './RevealOnceModal';
import { useResourceList } from './useResourceList';
import { capitalized, searchPlaceholder, titleOf as titleOfRecord } from './naming';
import { BulkActions } from './BulkActions';
import { RelatedLists } from './Relations';
import { ColumnsMenu, ExportButton } from './ListTools';
import { useColumnChoice } from './useColumnChoice';
import { useOptimisticList } from './optimistic';
import { AppKeyNote } from './AppKeyNote';
import { ReferrersNote } from './ReferrersNote';
import { bulkFieldsOf } from './BulkChangeModal';
import { useWriteRefusal, WriteButton, WriteIcon } from './writeGate';

const PAGE_SIZE = 25;

type Declared = ResourceDeclaration & { kind: ResourceKind };

function cellText(column: ColumnDeclaration, value: unknown): string {
  if (column.format === 'entries') return maskedText(value);
  if (value === null || value === undefined || value === '') return '—';
  if (column.format === 'datetime' && typeof value === 'string') {
    // The platform's stand-in for "never" (an expiry far in the future).
    return value.startsWith('9999-') ? 'Never' : formatDateTime(value);
  }
  const { text, structured } = readableValue(value);
  return structured ? JSON.stringify(value) : text;
}

/** A referred record's id (a review's course id), kept in its name's tooltip for an admin who needs it. */
const idHint = (column: ColumnDeclaration, raw: unknown) =>
  column.references && typeof raw === 'string' ? raw : undefined;

function Cell({ column, value, hint }: { column: ColumnDeclaration; value: unknown; hint?: string | undefined }) {
  if (column.format === 'expiry') return <ExpiryCell value={typeof value === 'string' ? value : null} />;
  if (column.format === 'boolean') {
    return (
      // Never narrower than its word: a table of many columns squeezes the others, not "Yes" into "Y…".
      <Badge
        variant="light"
        color={value ? 'teal' : 'gray'}
        style={{ flexShrink: 0 }}
        styles={{ label: { overflow: 'visible' } }}
      >
        {value ? 'Yes' : 'No'}
      </Badge>
    );
  }
  if (column.format === 'entries') {
    return (
      <Text size="sm" ff="monospace" c="dimmed" style={{ wordBreak: 'break-all' }}>
        {cellText(column, value)}
      </Text>
    );
  }
  const text = cellText(column, value);
  if (hint !== undefined && hint !== text) {
    return (
      <Text size="sm" title={hint} maw={TOKEN_MAX_WIDTH} style={ONE_LINE} data-testid="named-cell">
        {text}
      </Text>
    );
  }
  if (column.format !== 'datetime' && !/\s/.test(text)) {
    // One token (an id, a key, an address) is never broken inside, not even at a hyphen ("course-" / "v1:…"): it
    // keeps to one line, a long one cut with an ellipsis and given whole in its title.
    const token = (
      <Text size="sm" title={text} maw={TOKEN_MAX_WIDTH} style={ONE_LINE} data-testid="token-cell">
        {text}
      </Text>
    );
    // A long one (an address) may be narrowed by a tight table, down to a few words' width, rather than push the
    // table's last columns out of the window; a short one ("admin", "3") keeps its width.
    return text.length > SHRINKABLE_TOKEN ? <div style={SHRINKABLE}>{token}</div> : token;
  }
  if (column.format === 'datetime') return <DateTimeText text={text} />;
  return (
    // A few words (a review's title, a licence's name) keep to one line: "Clear and practical" broken over three
    // lines made every row of its table three lines tall. Longer text wraps.
    <Text size="sm" style={text.length <= SHORT_TEXT ? { whiteSpace: 'nowrap' } : undefined}>
      {text}
    </Text>
  );
}

/** Up to this many characters a cell's words are kept on one line. */
const SHORT_TEXT = 32;

/** How wide a one-token cell grows before it is cut with an ellipsis ("course-v1:northbridge+ECON102+2026" fits). */
const TOKEN_MAX_WIDTH = 300;
const ONE_LINE = { whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' } as const;
/** Tokens longer than this many characters may be narrowed, to SHRINKABLE's least width, in a tight table. */
const SHRINKABLE_TOKEN = 18;
const SHRINKABLE = { display: 'grid', gridTemplateColumns: 'minmax(8em, max-content)' } as const;

/**
 * A date and time ("Nov 6, 2026, 11:42 PM"): on one line where there is room; in a tight table the time goes under
 * the date, each kept whole, rather than the table's last columns out of the window.
 */
function DateTimeText({ text }: { text: string }) {
  const cut = text.lastIndexOf(', ');
  if (cut < 0) {
    return (
      <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
        {text}
      </Text>
    );
  }
  return (
    <Text size="sm">
      <span style={{ whiteSpace: 'nowrap' }}>{text.slice(0, cut + 1)}</span>{' '}
      <span style={{ whiteSpace: 'nowrap' }}>{text.slice(cut + 2)}</span>
    </Text>
  );
}

/**
 * A record's name, which opens it: on one line (a table of many columns scrolls rather than break "Hana Ueda" in
 * two), a long one cut with an ellipsis and given whole in its tooltip.
 */
function RecordName({ text, hint, onOpen }: { text: string; hint?: string | undefined; onOpen(): void }) {
  return (
    <Anchor
      component="button"
      type="button"
      size="sm"
      ta="left"
      title={hint && hint !== text ? `${text} (${hint})` : text}
      maw={280}
      style={{ display: 'block', whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }}
      onClick={onOpen}
    >
      {text}
    </Anchor>
  );
}

/** An end date, with a flag when it is near (EXPIRY_WARNING_DAYS) or past. */
export function ExpiryCell({ value }: { value: string | null }) {
  const expiry = expiryOf(value);
  if (expiry === 'none') return <Text size="sm">Never</Text>;
  return (
    // In a tight table the flag goes under the date rather than past the column, under the row's actions.
    <Group gap={6} wrap="wrap" style={{ rowGap: 2 }}>
      <DateTimeText text={formatDateTime(value)} />
      {expiry !== 'ok' && (
        // As the Yes/No badges: never narrower than its words ("Expir" under the next column).
        <Badge
          size="sm"
          variant="light"
          color={expiry === 'past' ? 'red' : 'orange'}
          style={{ flexShrink: 0 }}
          styles={{ label: { overflow: 'visible' } }}
        >
          {expiry === 'past' ? 'Expired' : 'Ends soon'}
        </Badge>
      )}
    </Group>
  );
}

const fill = (template: string, id: string) => template.replaceAll('{id}', id);

/**
 * The generic list of one kind: search, filters, server paging from the engine's cache, create, delete with
 * confirmation, and the empty, loading, error and offline states.
 */
export function ResourceList({
  profileId,
  declaration,
  openId,
  onOpen,
  Extra,
  Note,
  relatedNotes,
}: {
  profileId: string;
  declaration: Declared;
  /** Said above the list in place of the declaration's plain note: the same words with links (CatalogueScreen). */
  Note?: ComponentType<{ profileId: string }> | undefined;
  /** Said under a related list's heading in a record's details, by the related kind. */
  relatedNotes?: Partial<Record<string, ComponentType<{ profileId: string; record: ResourceRecord }>>> | undefined;
  /** Shown in a record's details after its related lists. */
  Extra?: ComponentType<{ profileId: string; record: ResourceRecord }> | undefined;
  /** The record whose details are open (the route names it: `#/<area>/<kind>/<id>`). */
  openId?: string | undefined;
  /** Opens a record's details (null closes them). */
  onOpen(id: string | null): void;
}) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 250);
  const [page, setPage] = useState(1);
  const { filters, setFilters, generation } = useListFilters(declaration, () => setPage(1));
  const query = {
    ...(debounced ? { search: debounced } : {}),
    ...(Object.keys(filters).length ? { where: filters } : {}),
  };
  const { list, refresh, refreshing } = useResourceList(profileId, {
    kind: declaration.kind,
    page,
    pageSize: PAGE_SIZE,
    ...query,
  });
  const choice = useColumnChoice(profileId, declaration.kind, declaration.columns);
  const columns = choice.shown;
  /** Selected records by id, with the name the confirmation shows; kept across pages until cleared. */
  const [selected, setSelected] = useState<ReadonlyMap<string, string>>(new Map());
  const select = (entries: { id: string; name: string }[], on: boolean) =>
    setSelected((current) => {
      const next = new Map(current);
      for (const { id, name } of entries) {
        if (on) next.set(id, name);
        else next.delete(id);
      }
      return next;
    });
  const [editor, setEditor] = useState<FormTarget | null>(null);
  const [importing, setImporting] = useState(false);
  const [deleting, setDeleting] = useState<ResourceRecord | null>(null);
  const [revealed, setRevealed] = useState<{ id: string; values: Record<string, string> } | null>(null);
  const optimistic = useOptimisticList(profileId, declaration.kind);
  // The row leaves the list at once, and comes back (with the platform's word in the confirmation) when refused.
  const remove = useMutationCall('resources.delete', {
    optimistic: ({ id }) => optimistic((rows) => rows.filter((row) => recordIdOf(declaration, row) !== id)),
  });
  const lookUp = useMutationCall('resources.get');
  const checking = lookUp.isPending;
  /** A kind the platform cannot list is looked up by id: found, it joins the list of those known here. */
  async function check(id: string) {
    try {
      await lookUp.mutateAsync({ profileId, kind: declaration.kind, id });
      notifySuccess(`Found on the platform`, `${declaration.singular} "${id}"`);
    } catch (error) {
      notifyError(`Not found on the platform`, error);
    }
  }
  const data = list.data;
  /** The list is the saved copy (the tenant is not answering): its writes are off, with the banner's reason. */
  const writeRefusal = useWriteRefusal(data?.freshness);
  const records = data?.records ?? [];
  const show = useShownValue(profileId, declaration, records);
  const pages = Math.max(1, Math.ceil((data?.total ?? 0) / PAGE_SIZE));
  const filtering = !!debounced || Object.keys(filters).length > 0;
  const idOf = (record: ResourceRecord) => recordIdOf(declaration, record);
  const titleOf = (record: ResourceRecord) => titleOfRecord(declaration, record);
  const deleteWord = declaration.deleteLabel ?? 'Delete';
  const canCreate = !!declaration.operations.create;
  const canDelete = !!declaration.operations.delete;
  const canUpdate = !!declaration.operations.update;
  const canSelect =
    canDelete ||
    bulkFieldsOf(declaration).length > 0 ||
    Object.values(declaration.actions ?? {}).some((action) => action.bulk);
  const onThisPage = records.map((record) => ({ id: idOf(record), name: titleOf(record) }));
  const pageSelected = onThisPage.filter(({ id }) => selected.has(id)).length;
  // A count the platform's list does not give (a department's members), before the id column.
  const count = useCountColumn(
    profileId,
    declaration,
    onThisPage.map(({ id }) => id),
  );
  const countBefore = (field: string) => count !== null && field === declaration.idField;
  const onPage = openId === undefined ? undefined : records.find((record) => idOf(record) === openId);
  // A record not on this page (a link, the command palette) is read by its id.
  const opened = useCall(
    'resources.get',
    { profileId, kind: declaration.kind, id: openId ?? '-' },
    {
      enabled: openId !== undefined && !onPage && list.isSuccess,
    },
  );
  const open = openId === undefined ? null : (onPage ?? opened.data?.record ?? null);

  return (
    <Stack gap="md">
      {/* The buttons keep their place at the right at any width; the description wraps beside them. */}
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <Text c="dimmed" size="sm" maw={640} style={{ flex: 1, minWidth: 0 }}>
          {asSentence(declaration.description)}
        </Text>
        {(canCreate || declaration.enrolment) && (
          <Group gap="xs" wrap="nowrap" style={{ flexShrink: 0 }}>
            {importRefusal(declaration) === null && (
              <WriteButton
                variant={canCreate ? 'default' : 'filled'}
                refusal={writeRefusal}
                onClick={() => setImporting(true)}
              >
                {declaration.enrolment ? 'Enrol from CSV…' : 'Import CSV'}
              </WriteButton>
            )}
            {canCreate && (
              <WriteButton
                leftSection={<PlusIcon size={16} />}
                refusal={writeRefusal}
                onClick={() => setEditor({ mode: 'create' })}
              >
                New {declaration.singular}
              </WriteButton>
            )}
          </Group>
        )}
      </Group>
      <ListFrame
        what={pluralOf(declaration)}
        freshness={data?.freshness}
        {...(data?.listed !== false && { refresh: { refreshing, onRefresh: () => void refresh() } })}
        banners={
          (Note || declaration.note) && (
            <Alert color="blue" variant="light" data-testid="resource-note">
              {Note ? <Note profileId={profileId} /> : asSentence(declaration.note!)}
            </Alert>
          )
        }
        toolbarStart={
          <>
            <TextInput
              aria-label={`Search ${pluralOf(declaration)}`}
              placeholder={searchPlaceholder(declaration)}
              leftSection={<SearchIcon size={16} />}
              value={search}
              onChange={(event) => {
                setSearch(event.currentTarget.value);
                setPage(1);
              }}
              // Narrows before the filters beside it wrap under it (a panel beside the tab column).
              style={{ flex: '1 1 240px', maxWidth: 360 }}
              type="search"
            />
            {(declaration.filters ?? []).map((filter) => (
              <ListFilter
                key={`${filter.field}:${generation}`}
                profileId={profileId}
                filter={filter}
                value={filters[filter.field]}
                onChange={(value) => {
                  setFilters(({ [filter.field]: _dropped, ...rest }) =>
                    value === undefined ? rest : { ...rest, [filter.field]: value },
                  );
                  setPage(1);
                }}
              />
            ))}
            <NarrowingPills
              declaration={declaration}
              filters={filters}
              shown={(field, value) => String(show(field, value))}
              onRemove={(field) => {
                setFilters(({ [field]: _dropped, ...rest }) => rest);
                setPage(1);
              }}
            />
            {data?.listed === false && declaration.operations.get && (
              <Button variant="default" disabled={!debounced} loading={checking} onClick={() => void check(debounced)}>
                Check on the platform
              </Button>
            )}
          </>
        }
        toolbarEnd={
          <>
            <ColumnsMenu columns={declaration.columns} choice={choice} />
            <ExportButton
              profileId={profileId}
              declaration={declaration}
              query={query}
              columns={columns}
              disabled={!data || data.total === 0}
            />
          </>
        }
        count={
          data && (
            <span data-testid="resource-count">
              {formatCount(data.total)} {data.total === 1 ? declaration.singular : pluralOf(declaration)}
            </span>
          )
        }
        beforeBody={
          canSelect &&
          selected.size > 0 && (
            <BulkActions
              profileId={profileId}
              declaration={declaration}
              selected={[...selected].map(([id, name]) => ({ id, name }))}
              onClear={() => setSelected(new Map())}
              refusal={writeRefusal}
            />
          )
        }
        loading={list.isPending}
        error={
          list.isError
            ? {
                title: `${declaration.label} could not be loaded`,
                error: list.error,
                onRetry: () => void list.refetch(),
              }
            : null
        }
        empty={
          list.isSuccess && records.length === 0
            ? {
                message: filtering
                  ? `No ${declaration.singular} matches.`
                  : data?.listed === false
                    ? `No ${pluralOf(declaration)} added or checked from this app yet.`
                    : `No ${pluralOf(declaration)} yet.`,
                action: !filtering && canCreate && (
                  <WriteButton
                    size="xs"
                    variant="light"
                    refusal={writeRefusal}
                    onClick={() => setEditor({ mode: 'create' })}
                  >
                    Add the first
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
        {records.length > 0 && (
          <ListTableArea minWidth={560} label={declaration.label}>
            <Table verticalSpacing="xs" highlightOnHover aria-label={declaration.label} data-testid="resource-table">
              <Table.Thead>
                <Table.Tr>
                  {canSelect && (
                    <Table.Th w={36}>
                      <Checkbox
                        size="xs"
                        aria-label={`Select every ${declaration.singular} on this page`}
                        checked={pageSelected > 0 && pageSelected === onThisPage.length}
                        indeterminate={pageSelected > 0 && pageSelected < onThisPage.length}
                        onChange={(event) => select(onThisPage, event.currentTarget.checked)}
                      />
                    </Table.Th>
                  )}
                  {columns.map((column) => (
                    <Fragment key={column.field}>
                      {countBefore(column.field) && (
                        <Table.Th style={{ whiteSpace: 'nowrap' }}>{count!.label}</Table.Th>
                      )}
                      <Table.Th style={{ whiteSpace: 'nowrap' }}>{column.label}</Table.Th>
                    </Fragment>
                  ))}
                  {count && !columns.some((column) => countBefore(column.field)) && (
                    <Table.Th style={{ whiteSpace: 'nowrap' }}>{count.label}</Table.Th>
                  )}
                  {(canDelete || canUpdate) && (
                    <Table.Th w={96} className={classes.actions}>
                      <VisuallyHidden>Actions</VisuallyHidden>
                    </Table.Th>
                  )}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody style={{ opacity: list.isPlaceholderData ? 0.6 : 1 }}>
                {records.map((record) => (
                  <Table.Tr
                    key={idOf(record)}
                    bg={selected.has(idOf(record)) ? 'var(--mantine-primary-color-light)' : undefined}
                  >
                    {canSelect && (
                      <Table.Td>
                        <Checkbox
                          size="xs"
                          aria-label={`Select ${titleOf(record)}`}
                          checked={selected.has(idOf(record))}
                          onChange={(event) =>
                            select([{ id: idOf(record), name: titleOf(record) }], event.currentTarget.checked)
                          }
                        />
                      </Table.Td>
                    )}
                    {columns.map((column, index) => (
                      <Fragment key={column.field}>
                        {countBefore(column.field) && <Table.Td>{count!.cell(idOf(record))}</Table.Td>}
                        <Table.Td>
                          {column.format === 'grant' ? (
                            <GrantCell record={record} />
                          ) : index === 0 ? (
                            <RecordName
                              text={cellText(column, show(column.field, record[column.field]))}
                              hint={idHint(column, record[column.field])}
                              onOpen={() => onOpen(idOf(record))}
                            />
                          ) : (
                            <Cell
                              column={column}
                              value={show(column.field, record[column.field])}
                              hint={idHint(column, record[column.field])}
                            />
                          )}
                        </Table.Td>
                      </Fragment>
                    ))}
                    {count && !columns.some((column) => countBefore(column.field)) && (
                      <Table.Td>{count.cell(idOf(record))}</Table.Td>
                    )}
                    {(canDelete || canUpdate) && (
                      <Table.Td
                        className={classes.actions}
                        data-selected={selected.has(idOf(record)) || undefined}
                        data-testid="row-actions"
                      >
                        {canUpdate && (
                          <WriteIcon
                            variant="subtle"
                            color="gray"
                            label={`Edit ${titleOf(record)}`}
                            refusal={writeRefusal}
                            onClick={() => setEditor({ mode: 'update', record })}
                          >
                            <EditIcon size={16} />
                          </WriteIcon>
                        )}
                        {canDelete && (
                          <WriteIcon
                            variant="subtle"
                            color="red"
                            label={`${deleteWord} ${titleOf(record)}`}
                            refusal={writeRefusal}
                            onClick={() => setDeleting(record)}
                          >
                            <TrashIcon size={16} />
                          </WriteIcon>
                        )}
                      </Table.Td>
                    )}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ListTableArea>
        )}
      </ListFrame>

      <ResourceFormModal
        profileId={profileId}
        declaration={declaration}
        target={editor}
        onClose={() => setEditor(null)}
        onCreated={(record, values) => {
          if (Object.keys(values).length) setRevealed({ id: titleOf(record), values });
          else notifySuccess(`${capitalized(declaration.singular)} added`, titleOf(record));
        }}
      />
      <ResourceImportModal
        profileId={profileId}
        declaration={declaration}
        opened={importing}
        onClose={() => setImporting(false)}
      />
      <RecordDrawer
        declaration={declaration}
        record={open}
        show={show}
        onClose={() => onOpen(null)}
        related={
          open && (
            <>
              <RelatedLists
                profileId={profileId}
                declaration={declaration}
                id={idOf(open)}
                name={titleOf(open)}
                refusal={writeRefusal}
                notes={Object.fromEntries(
                  Object.entries(relatedNotes ?? {}).flatMap(([kind, RelatedNote]) =>
                    RelatedNote ? [[kind, <RelatedNote key={idOf(open)} profileId={profileId} record={open} />]] : [],
                  ),
                )}
              />
              {Extra && <Extra key={idOf(open)} profileId={profileId} record={open} />}
            </>
          )
        }
        editRefusal={writeRefusal}
        {...(canUpdate && {
          onEdit: (record: ResourceRecord) => {
            onOpen(null);
            setEditor({ mode: 'update', record });
          },
        })}
      />
      <RevealOnceModal declaration={declaration} shown={revealed} onClose={() => setRevealed(null)} />
      <ConfirmModal
        target={deleting}
        title={`${deleteWord} ${declaration.singular}`}
        mutation={remove}
        failedTitle={`Not ${deleteWord.toLowerCase()}d`}
        confirmLabel={deleteWord}
        refusal={writeRefusal}
        onClose={() => setDeleting(null)}
        onConfirm={(record, close) =>
          remove.mutate(
            { profileId, kind: declaration.kind, id: idOf(record) },
            {
              onSuccess: () => {
                close();
                notifySuccess(`${deleteWord}d`, `${declaration.singular} "${titleOf(record)}"`);
              },
            },
          )
        }
      >
        {(record) => (
          <>
            <Text size="sm">
              {fill(declaration.confirmDelete ?? `${deleteWord} the ${declaration.singular} "{id}"?`, titleOf(record))}
            </Text>
            <AppKeyNote
              profileId={profileId}
              declaration={declaration}
              ids={[idOf(record)]}
              nameOf={() => titleOf(record)}
            />
            <ReferrersNote
              profileId={profileId}
              declaration={declaration}
              ids={[idOf(record)]}
              nameOf={() => titleOf(record)}
            />
          </>
        )}
      </ConfirmModal>
    </Stack>
  );
}
