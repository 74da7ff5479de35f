import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Group,
  Modal,
  ScrollArea,
  SegmentedControl,
  Select,
  Skeleton,
  Stack,
  Stepper,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useState } from 'react';
import {
  CSV_DELIMITERS,
  CSV_ENCODINGS,
  type CsvDelimiter,
  type CsvEncoding,
  type ResourceImportPreview,
  type ResourceImportRow,
} from '../../shared/contract';
import {
  declarationOf,
  importColumnsHint,
  pluralOf,
  type ResourceDeclaration,
  type ResourceKind,
} from '../../shared/resources';
import { IMPORT_WORDS, importSummary, repeatedMessage, type ImportWords } from '../../shared/import-summary';
import { titleOf } from './naming';
import { errorMessage } from '../bridge/errors';
import { CsvDropZone } from '../components/csv-import/CsvDropZone';
import { Notices } from '../components/csv-import/Notices';
import { WizardFooter } from '../components/csv-import/WizardFooter';
import { DELIMITER_LABELS, ENCODING_LABELS, rowLabel } from '../components/csv-import/labels';
import { JobActions } from '../components/jobs/JobActions';
import { JobProgressCard } from '../components/jobs/JobProgressCard';
import { JobHeading } from '../components/jobs/FollowJob';
import { formatCount } from '../lib/format';
import { useCall, useMutationCall } from '../queries/useCall';
import { capitalized } from './naming';

type Declared = ResourceDeclaration & { kind: ResourceKind };
type Step = 'file' | 'review' | 'import';

const IGNORE = 'ignore';
/** The column-to-field selects' width bounds, and an extra-small character's width for sizing them to their labels. */
const MAPPING_MIN_WIDTH = 190;
const MAPPING_MAX_WIDTH = 320;
const XS_CHAR = 7;
const NO_HEADER = 'none';
const ROWS_SHOWN = 200;
const OUTCOMES = [
  ['created', 'created', 'teal'],
  ['updated', 'updated', 'blue'],
  ['unchanged', 'unchanged', 'gray'],
  ['invalid', 'invalid', 'red'],
  ['dropped', 'left out', 'gray'],
  ['failed', 'failed', 'red'],
] as const;
const MEMBERSHIP_RESULTS: Record<string, string> = {
  repeated: 'Repeated',
  unknown: 'No such person',
  invalid: 'Invalid',
  dropped: 'Left out',
  failed: 'Failed',
};

interface Choices {
  encoding?: CsvEncoding;
  delimiter?: CsvDelimiter;
  headerRow?: number | null;
  mapping?: (string | null)[];
}

/**
 * A kind's CSV import, the same flow as the invitations' (the shared drop zone, notes and footer): file → columns and
 * rows (how the file is read, which column fills which field, every row checked against the platform's rules, bad
 * cells fixed in place or rows left out) → the job that creates, updates or leaves unchanged each row.
 */
export function ResourceImportModal({
  profileId,
  declaration,
  opened,
  onClose,
  group,
  license: givenLicense,
}: {
  profileId: string | undefined;
  declaration: Declared;
  opened: boolean;
  onClose: () => void;
  /** A membership kind imported from a group's details: rows without a group go into this one. */
  group?: { id: string; name: string };
  /** A seat kind: the licence whose seats the file's people take. */
  license?: { id: number; name: string };
}) {
  // Seat and enrolment files run as membership files do: a job for the dry run too, a report of the rows that did
  // not go in.
  const byPerson = !!(declaration.membership || declaration.seats || declaration.enrolment);
  const [step, setStep] = useState<Step>('file');
  const [source, setSource] = useState<{ name: string; path: string } | null>(null);
  const [choices, setChoices] = useState<Choices>({});
  const [fixes, setFixes] = useState<Record<string, string>>({});
  const [dropped, setDropped] = useState<number[]>([]);
  const [filter, setFilter] = useState<'invalid' | 'all'>('invalid');
  const [jobId, setJobId] = useState<string | null>(null);
  const [dryRun, setDryRun] = useState(false);
  const check = useMutationCall('resources.import');
  const start = useMutationCall('resources.import');
  // Opened from a seats tab (no licence given), the admin picks the licence by name before the file.
  const [picked, setPicked] = useState<{ id: number; name: string } | null>(null);
  const licenseKind = declaration.seats && !givenLicense ? (declaration.seats.licenseKind as ResourceKind) : undefined;
  const licences = useCall(
    'resources.list',
    { ...(profileId && { profileId }), kind: licenseKind ?? declaration.kind, pageSize: 500 },
    { enabled: opened && !!licenseKind },
  );
  const licenceChoices = (licences.data?.records ?? []).map((record) => ({
    value: String(record.id),
    // A licence is known by its own name (a program licence's title field is its program).
    label:
      typeof record.name === 'string' && record.name
        ? record.name
        : licenseKind
          ? titleOf(declarationOf(licenseKind), record)
          : String(record.id),
  }));
  const license = givenLicense ?? picked ?? undefined;

  const input = {
    ...(profileId && { profileId }),
    kind: declaration.kind,
    path: source?.path ?? '-',
    name: source?.name ?? '',
    ...choices,
    ...(group && { group: group.id }),
    ...(license && { licenseId: license.id }),
    fixes: Object.entries(fixes).map(([key, value]) => {
      const [line, field] = key.split('\n') as [string, string];
      return { line: Number(line), field, value };
    }),
    dropped,
    rows: { filter, offset: 0, limit: ROWS_SHOWN },
  };
  const preview = useCall('resources.import', input, { enabled: opened && step === 'review' && !!source });
  // Changing a choice reads the file again: the last answer stays on screen meanwhile.
  const [kept, setKept] = useState<ResourceImportPreview | null>(null);
  if (preview.data && preview.data !== kept) setKept(preview.data);
  const shown = preview.data ?? kept;

  const reset = () => {
    setStep('file');
    setSource(null);
    setChoices({});
    setFixes({});
    setDropped([]);
    setFilter('invalid');
    setJobId(null);
    setDryRun(false);
    setKept(null);
    setPicked(null);
    check.reset();
    start.reset();
  };
  const close = () => {
    reset();
    onClose();
  };

  /** Starts the job; a membership kind's dry run is a job too, which reads the tenant and sends nothing. */
  const begin = (dry: boolean) =>
    start.mutate(
      { ...input, rows: { filter: 'invalid', offset: 0, limit: 0 }, start: true, ...(dry && { dryRun: true }) },
      {
        onSuccess: (answer) => {
          setJobId(answer.job?.id ?? null);
          setDryRun(dry);
          setStep('import');
        },
      },
    );

  const plural = pluralOf(declaration);
  const words = wordsOf(declaration);
  // People put into groups or enrolled in catalogue items: a job whose dry run reads the tenant.
  // A repeated row is valid but sent once (with the row it repeats): the button counts what will be sent.
  const sent = (shown?.counts.valid ?? 0) - (shown?.counts.repeated ?? 0);
  return (
    <Modal
      opened={opened}
      onClose={close}
      title={
        group
          ? declaration.enrolment
            ? `Enrol in ${group.name} from CSV`
            : `Import members of ${group.name} from CSV`
          : license
            ? `Give seats of ${license.name} from CSV`
            : declaration.enrolment
              ? 'Enrol from CSV'
              : `Import ${plural} from CSV`
      }
      size="min(1100px, 96vw)"
      closeOnClickOutside={step !== 'review'}
    >
      <Stepper
        active={step === 'file' ? 0 : step === 'review' ? 1 : 2}
        size="xs"
        iconSize={28}
        wrap={false}
        allowNextStepsSelect={false}
        mb="lg"
      >
        <Stepper.Step label="File" />
        <Stepper.Step label="Columns and rows" />
        <Stepper.Step label="Import" />
      </Stepper>

      {step === 'file' && licenseKind && (
        <Select
          label={declaration.seats?.licenseLabel}
          description="The licence whose seats the file's people take"
          placeholder={licences.isLoading ? 'Reading licences…' : 'Choose a licence'}
          data={licenceChoices}
          value={picked ? String(picked.id) : null}
          onChange={(value) => {
            const choice = licenceChoices.find((item) => item.value === value);
            setPicked(choice ? { id: Number(choice.value), name: choice.label } : null);
          }}
          searchable
          required
          mb="md"
          data-testid="resource-import-licence"
          error={licences.isError ? errorMessage(licences.error) : undefined}
        />
      )}
      {step === 'file' && (!licenseKind || picked) && (
        <CsvDropZone
          title={declaration.enrolment ? 'Drop a CSV file of people to enrol' : `Drop a CSV file of ${plural}`}
          hint={importColumnsHint(declaration, group?.name ?? license?.name)}
          inputTestId="resource-import-file"
          onOpen={async (name, path) => {
            // Read once here, so a file that cannot be imported is said on this step.
            await check.mutateAsync({
              ...(profileId && { profileId }),
              kind: declaration.kind,
              path,
              name,
              ...(group && { group: group.id }),
              ...(license && { licenseId: license.id }),
            });
            setSource({ name, path });
            setStep('review');
          }}
        />
      )}

      {step === 'review' && !shown && (preview.isError ? <ErrorAlert error={preview.error} /> : <Skeleton h={240} />)}
      {step === 'review' && shown && (
        <Review
          declaration={declaration}
          preview={shown}
          reading={preview.isFetching}
          error={preview.isError ? preview.error : null}
          filter={filter}
          onFilter={setFilter}
          onChoose={(change) => setChoices((current) => ({ ...current, ...change }))}
          onFix={(line, field, value) => setFixes((current) => ({ ...current, [`${line}\n${field}`]: value }))}
          onDrop={(line, drop) =>
            setDropped((current) => (drop ? [...current, line] : current.filter((l) => l !== line)))
          }
          footer={
            <WizardFooter>
              <Button variant="default" onClick={reset}>
                Back
              </Button>
              <Group gap="sm" wrap="nowrap">
                {start.isError && (
                  <Text size="sm" c="red" maw={420} lineClamp={2}>
                    {errorMessage(start.error)}
                  </Text>
                )}
                {byPerson && (
                  <Button
                    variant="default"
                    disabled={sent <= 0 || preview.isFetching || start.isPending}
                    onClick={() => begin(true)}
                  >
                    Dry run
                  </Button>
                )}
                <Button
                  disabled={sent <= 0 || preview.isFetching}
                  loading={start.isPending}
                  onClick={() => begin(false)}
                >
                  {declaration.enrolment
                    ? `Enrol ${formatCount(sent)} ${sent === 1 ? 'row' : 'rows'}`
                    : `Import ${formatCount(sent)} ${sent === 1 ? declaration.singular : plural}`}
                </Button>
              </Group>
            </WizardFooter>
          }
        />
      )}

      {step === 'import' && jobId && (
        <ImportJob
          jobId={jobId}
          membership={byPerson}
          {...(words && { words })}
          target={targetLabel(declaration)}
          dryRun={dryRun}
          onAnother={reset}
          onClose={close}
          onSend={() => begin(false)}
        />
      )}
    </Modal>
  );
}

/** A people file's outcomes in its kind's words: seats, members, enrolments, suggestions. */
function wordsOf(declaration: Declared): ImportWords | undefined {
  if (declaration.seats) return IMPORT_WORDS.seats;
  if (declaration.membership) return IMPORT_WORDS.members;
  if (declaration.enrolment) return IMPORT_WORDS.enrolments;
  if (declaration.suggestion) return IMPORT_WORDS.suggestions;
  return undefined;
}

/** What a people file's second column names, as the report's column heads it (a seat file has none: one licence). */
function targetLabel(declaration: Declared): string | null {
  if (declaration.membership) return capitalized(declarationOf(declaration.membership.groupKind).singular);
  return declaration.enrolment?.groupLabel ?? declaration.suggestion?.groupLabel ?? null;
}

function ErrorAlert({ error }: { error: unknown }) {
  return (
    <Alert color="red" title="This file cannot be imported">
      {errorMessage(error)}
    </Alert>
  );
}

function Review({
  declaration,
  preview,
  reading,
  error,
  filter,
  onFilter,
  onChoose,
  onFix,
  onDrop,
  footer,
}: {
  declaration: Declared;
  preview: ResourceImportPreview;
  reading: boolean;
  error: unknown;
  filter: 'invalid' | 'all';
  onFilter: (filter: 'invalid' | 'all') => void;
  onChoose: (change: Choices) => void;
  onFix: (line: number, field: string, value: string) => void;
  onDrop: (line: number, drop: boolean) => void;
  footer: React.ReactNode;
}) {
  const setField = (index: number, field: string | null) => {
    // A field comes from one column: choosing it here clears it elsewhere.
    onChoose({ mapping: preview.mapping.map((f, i) => (i === index ? field : f === field ? null : f)) });
  };
  const fieldOptions = [
    { value: IGNORE, label: 'Ignore' },
    ...preview.fields.map((field) => ({
      value: field.field,
      label: `${field.label}${field.required ? ' (required)' : ''}`,
    })),
  ];
  // As wide as the longest field's name ("Email or username (required)" was cut), within bounds.
  const fieldSelectWidth = Math.min(
    MAPPING_MAX_WIDTH,
    Math.max(MAPPING_MIN_WIDTH, Math.max(...fieldOptions.map((option) => option.label.length)) * XS_CHAR + 44),
  );
  const mapped = preview.fields.filter((field) => preview.mapping.includes(field.field));
  const labels = new Map(preview.fields.map((field) => [field.field, field.label]));
  const { counts } = preview;
  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed" mb={-8}>
        {preview.name} · how it is read, which column fills which field, and what each row will do
      </Text>
      <Group gap="sm" align="flex-end" wrap="wrap">
        <Select
          label="Encoding"
          w={150}
          allowDeselect={false}
          value={preview.encoding}
          data={CSV_ENCODINGS.map((value) => ({ value, label: ENCODING_LABELS[value] }))}
          onChange={(value) => value && onChoose({ encoding: value as CsvEncoding, mapping: undefined })}
        />
        <Select
          label="Delimiter"
          w={130}
          allowDeselect={false}
          value={preview.delimiter}
          data={CSV_DELIMITERS.map((value) => ({ value, label: DELIMITER_LABELS[value] }))}
          onChange={(value) => value && onChoose({ delimiter: value as CsvDelimiter, mapping: undefined })}
        />
        <Select
          label="Header row"
          miw={240}
          style={{ flex: 1 }}
          allowDeselect={false}
          value={preview.headerRow === null ? NO_HEADER : String(preview.headerRow)}
          data={[
            { value: NO_HEADER, label: `No header row (the file starts with ${pluralOf(declaration)})` },
            ...preview.preview
              .slice(0, 20)
              .map((row, index) => ({ value: String(index), label: rowLabel(row, index) })),
          ]}
          onChange={(value) =>
            value && onChoose({ headerRow: value === NO_HEADER ? null : Number(value), mapping: undefined })
          }
        />
      </Group>
      <Group gap="sm" wrap="wrap" align="flex-end">
        {preview.headers.map((header, index) => {
          const chosen = fieldOptions.find((option) => option.value === (preview.mapping[index] ?? IGNORE));
          return (
            <Select
              key={`${index}-${header}`}
              size="xs"
              w={fieldSelectWidth}
              label={header}
              aria-label={`Field for column ${header}`}
              // Whole on hover too, should a label be longer than the width allows.
              title={chosen?.label}
              allowDeselect={false}
              value={preview.mapping[index] ?? IGNORE}
              data={fieldOptions}
              onChange={(value) => setField(index, !value || value === IGNORE ? null : value)}
            />
          );
        })}
      </Group>
      <Notices notices={preview.notices} />
      {!!error && <ErrorAlert error={error} />}
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Group gap="xs" data-testid="import-counts" aria-live="polite">
          {/* Parts that add up to the file's rows: a repeated row is counted as repeated, not as ready too. */}
          <Badge size="lg" color="teal" variant="light">
            {formatCount(counts.valid - (counts.repeated ?? 0))} ready
          </Badge>
          {counts.invalid > 0 && (
            <Badge color="red" variant="light">
              {formatCount(counts.invalid)} with problems
            </Badge>
          )}
          {(counts.repeated ?? 0) > 0 && (
            <Badge color="yellow" variant="light">
              {formatCount(counts.repeated ?? 0)} repeated in the file
            </Badge>
          )}
          {counts.dropped > 0 && (
            <Badge color="gray" variant="outline">
              {formatCount(counts.dropped)} left out
            </Badge>
          )}
          {reading && (
            <Text size="xs" c="dimmed">
              Checking…
            </Text>
          )}
        </Group>
        <SegmentedControl
          size="xs"
          value={filter}
          onChange={(value) => onFilter(value as 'invalid' | 'all')}
          data={[
            // A people file's repeated rows are listed with the problems: to check, not to fix.
            { value: 'invalid', label: counts.repeated ? 'Rows to check' : 'Rows with problems' },
            { value: 'all', label: 'All rows' },
          ]}
        />
      </Group>
      {preview.rows.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="import-rows-empty">
          {filter === 'invalid' ? 'No row has a problem or repeats another.' : 'The file has no rows.'}
        </Text>
      ) : (
        <ScrollArea.Autosize mah={320}>
          <Table withTableBorder striped aria-label="Rows" data-testid="import-rows">
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={70}>Row</Table.Th>
                {mapped.map((field) => (
                  <Table.Th key={field.field}>{field.label}</Table.Th>
                ))}
                <Table.Th>Problem</Table.Th>
                <Table.Th w={110}>Leave out</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {preview.rows.map((row) => (
                <RowLine key={row.line} row={row} fields={mapped} labels={labels} onFix={onFix} onDrop={onDrop} />
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea.Autosize>
      )}
      {preview.rowsTotal > preview.rows.length && (
        <Text size="xs" c="dimmed">
          The first {formatCount(preview.rows.length)} of {formatCount(preview.rowsTotal)} rows.
        </Text>
      )}
      {footer}
    </Stack>
  );
}

function RowLine({
  row,
  fields,
  labels,
  onFix,
  onDrop,
}: {
  row: ResourceImportRow;
  fields: { field: string; label: string }[];
  /** Problems name their column as the screen does. */
  labels: ReadonlyMap<string, string>;
  onFix: (line: number, field: string, value: string) => void;
  onDrop: (line: number, drop: boolean) => void;
}) {
  const problemAt = (field: string) => row.problems.find((p) => p.field === field)?.message;
  return (
    <Table.Tr c={row.dropped ? 'dimmed' : undefined}>
      <Table.Td>{row.line}</Table.Td>
      {fields.map((field) => (
        <Table.Td key={field.field} miw={160}>
          {row.problems.length && !row.dropped ? (
            <TextInput
              size="xs"
              aria-label={`${field.label}, row ${row.line}`}
              defaultValue={row.values[field.field] ?? ''}
              error={problemAt(field.field) ? true : undefined}
              onBlur={(event) => {
                if (event.currentTarget.value !== (row.values[field.field] ?? ''))
                  onFix(row.line, field.field, event.currentTarget.value);
              }}
              onKeyDown={(event) => {
                if (event.key === 'Enter') event.currentTarget.blur();
              }}
            />
          ) : (
            <Text size="sm" truncate maw={320}>
              {row.values[field.field] || '—'}
            </Text>
          )}
        </Table.Td>
      ))}
      <Table.Td>
        <Text size="sm" c={row.problems.length ? 'red' : row.repeatOf !== undefined ? 'yellow.8' : 'dimmed'}>
          {row.problems.length
            ? row.problems
                .map((p) => (p.field ? `${labels.get(p.field) ?? capitalized(p.field)}: ${p.message}` : p.message))
                .join('; ')
            : row.repeatOf !== undefined
              ? `${repeatedMessage(row.repeatOf)}: sent once`
              : 'Ready'}
        </Text>
      </Table.Td>
      <Table.Td>
        <Checkbox
          aria-label={`Leave out row ${row.line}`}
          checked={row.dropped}
          onChange={(event) => onDrop(row.line, event.currentTarget.checked)}
        />
      </Table.Td>
    </Table.Tr>
  );
}

/** One outcome of an import job: its count's key, its words, its colour. */
export type ImportOutcome = readonly [key: string, words: string, color: string];

/**
 * The import step every people-file import shares: the job's progress, its counts in the kind's words, the rows that
 * added nobody, and after a dry run "Import now" (the badge import's dialog uses it too).
 */
export function ImportJob({
  jobId,
  membership,
  outcomes: ownOutcomes,
  words,
  target = null,
  dryRun,
  onAnother,
  onClose,
  onSend,
}: {
  jobId: string;
  membership: boolean;
  /** The outcomes in the kind's own words (a badge's), where they are not a people file's summary. */
  outcomes?: readonly ImportOutcome[];
  /** A people file's (seats, members, enrolments, suggestions): its counts said as parts that add up to its rows. */
  words?: ImportWords;
  /** The report's column of what each row names (a department, a program or pathway); null: none (seats). */
  target?: string | null;
  dryRun: boolean;
  onAnother: () => void;
  onClose: () => void;
  /** After a dry run: the same file, sent. */
  onSend: () => void;
}) {
  const job = useCall('jobs.get', { id: jobId });
  if (!job.data) return <Skeleton height={160} />;
  const ended = ['completed', 'failed', 'cancelled'].includes(job.data.state);
  const counts = job.data.counts;
  const outcomes: readonly ImportOutcome[] = ownOutcomes ?? OUTCOMES;
  // A dry run's lead count is its "would" outcome (wouldAdd, or a kind's own such as wouldIssue).
  const would = words ? 'wouldAdd' : (outcomes.find(([key]) => key.startsWith('would'))?.[0] ?? 'wouldAdd');
  const first = dryRun ? would : outcomes[0]![0];
  // A people file's counts as parts that add up to its rows, in its kind's words (shared/import-summary.ts).
  const summary = words ? importSummary(counts, words, dryRun) : null;
  const badges = summary
    ? summary.parts.map((part, index) => ({ ...part, lead: index === 0 }))
    : outcomes
        .filter(([key]) => key === first || (counts[key] ?? 0) > 0)
        .map(([key, said, color]) => ({ key, count: counts[key] ?? 0, words: said, color, lead: key === first }));
  // Seats given past the free ones (a run that sends gives them too): said beside the count of seats given.
  const beyondSeats = summary && !dryRun ? (counts.overSeats ?? 0) : 0;
  // One primary action at a time: "Import now" after a dry run that would send something, else "Done".
  const canSend = ended && dryRun && ((counts[would] ?? 0) > 0 || (!!summary && (counts.overSeats ?? 0) > 0));
  return (
    <Stack gap="md">
      <JobHeading job={job.data} />
      {/* A people file's card says its rows as the parts below do (it reads the job's kind and dry run itself). */}
      <JobProgressCard job={job.data} />
      {ended && (
        <Group gap="xs" data-testid="import-result" aria-live="polite">
          {badges.map((badge) => (
            <Badge key={badge.key} size={badge.lead ? 'lg' : 'md'} color={badge.color} variant="light">
              {formatCount(badge.count)} {badge.words}
            </Badge>
          ))}
          {beyondSeats > 0 && (
            <Text size="sm" c="orange.8">
              {formatCount(beyondSeats)} of them beyond the licence’s seats
            </Text>
          )}
        </Group>
      )}
      {ended && membership && <RowsNotAdded jobId={jobId} target={target} dryRun={dryRun} />}
      {ended && dryRun && (counts.overSeats ?? 0) > 0 && <RowsOverSeats jobId={jobId} />}
      <WizardFooter>
        <Group gap="xs">
          <Button variant="default" onClick={onAnother}>
            Import another file
          </Button>
          {canSend && (
            <Button variant="filled" onClick={onSend}>
              Import now
            </Button>
          )}
          {ended && (
            <Button variant={canSend ? 'default' : 'filled'} onClick={onClose}>
              Done
            </Button>
          )}
        </Group>
        <JobActions job={job.data} />
      </WizardFooter>
    </Stack>
  );
}

/** A dry run's rows past the licence's free seats, by row. */
function RowsOverSeats({ jobId }: { jobId: string }) {
  return (
    <ReportRows
      jobId={jobId}
      which={{ phases: ['overSeats'] }}
      title="Rows that will not fit"
      testId="import-over-seats"
      target={null}
      result={false}
    />
  );
}

/** The rows of a people file that added nobody, with the reason (the whole report is the job's CSV). */
function RowsNotAdded({ jobId, target, dryRun }: { jobId: string; target: string | null; dryRun: boolean }) {
  return (
    <ReportRows
      jobId={jobId}
      which={{ states: ['skipped', 'failed'] }}
      title={dryRun ? 'Rows that would add nobody' : 'Rows that added nobody'}
      testId="import-report"
      target={target}
      result
    />
  );
}

/** Some rows of an import's report, by row number: who, (the group,) the result and why; the first ROWS_SHOWN of them. */
function ReportRows({
  jobId,
  which,
  title,
  testId,
  target,
  result,
}: {
  jobId: string;
  which: { phases: string[] } | { states: ('skipped' | 'failed')[] };
  title: string;
  testId: string;
  /** The column of what each row names, headed in the kind's word ("Department", "Course"); null: none. */
  target: string | null;
  /** The result in words (and a failure's error as the reason). */
  result: boolean;
}) {
  const items = useCall('jobs.items', { id: jobId, ...which, limit: ROWS_SHOWN });
  const rows = items.data?.items ?? [];
  if (!rows.length) return null;
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500}>
        {title}
      </Text>
      <ScrollArea.Autosize mah={result ? 240 : 200}>
        <Table withTableBorder striped aria-label={title} data-testid={testId}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={70}>Row</Table.Th>
              <Table.Th>Person</Table.Th>
              {target !== null && <Table.Th>{target}</Table.Th>}
              {result && <Table.Th w={100}>Result</Table.Th>}
              <Table.Th>Why</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((item) => {
              const detail = item.detail as {
                line?: number;
                person?: string;
                group?: string;
                groupName?: string;
                message?: string;
              };
              return (
                <Table.Tr key={item.id}>
                  <Table.Td>{detail.line}</Table.Td>
                  <Table.Td>{detail.person || '—'}</Table.Td>
                  {target !== null && (
                    <Table.Td title={detail.groupName ? detail.group : undefined}>
                      {detail.groupName || detail.group || '—'}
                    </Table.Td>
                  )}
                  {result && <Table.Td>{MEMBERSHIP_RESULTS[item.phase] ?? item.phase}</Table.Td>}
                  <Table.Td>
                    <Text size="sm" c="dimmed">
                      {(result ? item.error : undefined) ?? detail.message ?? ''}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </ScrollArea.Autosize>
      {(items.data?.total ?? 0) > rows.length && (
        <Text size="xs" c="dimmed">
          The first {formatCount(rows.length)} of {formatCount(items.data!.total)}: the job’s report has every row.
        </Text>
      )}
    </Stack>
  );
}
