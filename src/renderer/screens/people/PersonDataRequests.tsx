/**
 * A learner's data requests on their page: "Export data…" (everything about them as one zip, a job) and "Erase
 * person…" (a preview of what goes, their username typed out, a job, then the signed-off report); and the tenant's
 * past erasure reports (a tab of People and access, since an erased person has no page any more).
 */
import { Alert, Anchor, Badge, Button, Code, Group, Modal, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { ERASE_STEP_LABELS, type ErasureReport } from '../../../shared/contract';
import { LoadErrorAlert } from '../../components/LoadErrorAlert';
import { TypedConfirmModal } from '../../components/TypedConfirmModal';
import { formatDateTime } from '../../lib/format';
import { useCall, useMutationCall } from '../../queries/useCall';
import { FollowJob } from '../../components/jobs/FollowJob';

const ENDED = ['completed', 'failed', 'cancelled'];

/** A job started here, followed until it ends. */

/** "Export data…": one zip with a CSV per dataset and a manifest, written by a job to the export folder. */
export function ExportDataModal({
  profileId,
  username,
  opened,
  onClose,
}: {
  profileId: string;
  username: string;
  opened: boolean;
  onClose(): void;
}) {
  const start = useMutationCall('person.export');
  const close = () => {
    start.reset();
    onClose();
  };
  return (
    <Modal opened={opened} onClose={close} title={`Export everything about ${username}`}>
      <Stack gap="sm">
        {!start.data && (
          <Text size="sm">
            One zip with a CSV for each of their chat history, feedback, memory (current, historical, profile, edX),
            tickets, invitations and enrolments, and a manifest saying what is in it, when and by whom.
          </Text>
        )}
        {start.error && <Alert color="red">{start.error.message}</Alert>}
        {start.data && (
          <>
            <FollowJob jobId={start.data.jobId} />
            <Text size="sm" data-testid="export-path" style={{ overflowWrap: 'anywhere' }}>
              Saved on the computer running Mentor Admin: <Code>{start.data.path}</Code>
            </Text>
          </>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {start.data ? 'Done' : 'Cancel'}
          </Button>
          {!start.data && (
            <Button loading={start.isPending} onClick={() => start.mutate({ profileId, user: username })}>
              Export
            </Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}

/** "Erase person…": the counts per dataset, the refusal if any, then the username typed out. */
export function EraseModal({
  profileId,
  username,
  opened,
  onClose,
  onStarted,
}: {
  profileId: string;
  username: string;
  opened: boolean;
  onClose(): void;
  onStarted(started: { jobId: string; reportId: string }): void;
}) {
  const preview = useCall('person.preview', { profileId, user: username }, { enabled: opened });
  const erase = useMutationCall('person.erase');
  const refusal = preview.data?.refusal ?? null;
  return (
    <TypedConfirmModal
      opened={opened}
      title={`Erase ${username}`}
      names={[username]}
      accepts={(typed) => !!preview.data && !refusal && typed === username}
      mutation={erase}
      confirmLabel="Erase"
      onConfirm={(typed, done) =>
        erase.mutate(
          { profileId, user: username, confirm: typed },
          {
            onSuccess: (started) => {
              done();
              onStarted(started);
            },
          },
        )
      }
      onClose={onClose}
    >
      <Text size="sm">
        Their chat history, memory, profile memory and edX memory are deleted on the platform, then they are removed
        from the tenant. This cannot be undone. A report of what went is kept on this computer.
      </Text>
      {preview.isError && (
        <LoadErrorAlert
          title="What would go could not be read"
          error={preview.error}
          onRetry={() => void preview.refetch()}
        />
      )}
      {preview.isPending && <Skeleton height={120} />}
      {preview.data && (
        <Table data-testid="erase-preview" withRowBorders={false} verticalSpacing={2}>
          <Table.Tbody>
            {preview.data.counts.map(({ step, count }) => (
              <Table.Tr key={step}>
                <Table.Td>{ERASE_STEP_LABELS[step]}</Table.Td>
                <Table.Td ta="right">{step === 'user' ? 'removed' : count.toLocaleString('en-US')}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {preview.data?.warnings.map((warning) => (
        <Alert key={warning} color="yellow" variant="light">
          {warning}
        </Alert>
      ))}
      {refusal && (
        <Alert color="red" title="This person cannot be erased" data-testid="erase-refusal">
          {refusal}
        </Alert>
      )}
    </TypedConfirmModal>
  );
}

/** One erasure report: per dataset what was planned and what went, who asked, when, and its signature. */
export function ErasureReportView({ report }: { report: ErasureReport }) {
  return (
    <Stack gap="xs" data-testid="erasure-report">
      <Group gap="xs">
        <Title order={3} size="h5">
          {report.username}
        </Title>
        <Badge color={report.state === 'erased' ? 'teal' : report.state === 'failed' ? 'red' : 'blue'} variant="light">
          {report.state === 'erased' ? 'Erased' : report.state === 'failed' ? 'Failed' : 'Erasing'}
        </Badge>
      </Group>
      <Text size="sm" c="dimmed">
        Asked by {report.requestedBy} on {formatDateTime(report.requestedAt)}
        {report.finishedAt && ` · ended ${formatDateTime(report.finishedAt)}`}
      </Text>
      <Table withTableBorder verticalSpacing={4}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>What</Table.Th>
            <Table.Th ta="right">Found</Table.Th>
            <Table.Th ta="right">Erased</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {report.steps.map((step) => (
            <Table.Tr key={step.step}>
              <Table.Td>{ERASE_STEP_LABELS[step.step]}</Table.Td>
              <Table.Td ta="right">{step.planned}</Table.Td>
              <Table.Td ta="right">{step.erased ?? '–'}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {report.digest && (
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          Signed off: SHA-256 <Code>{report.digest}</Code>
        </Text>
      )}
    </Stack>
  );
}

/** The erasure under way, in place of the person's page, and its report once it ends. */
export function ErasureUnderway({ jobId, onBack }: { jobId: string; onBack(): void }) {
  const job = useCall('jobs.get', { id: jobId });
  const reports = useCall('person.erasures', {});
  const report = reports.data?.reports.find((r) => r.jobId === jobId);
  const ended = !!job.data && ENDED.includes(job.data.state);
  return (
    <Stack gap="md" maw={720} data-testid="erasure-underway">
      <FollowJob jobId={jobId} />
      {ended && report && <ErasureReportView report={report} />}
      <Group>
        <Button onClick={onBack}>Back to users</Button>
      </Group>
    </Stack>
  );
}

/** People and access → Erasure reports: every erasure asked for from this computer for the tenant, newest first. */
export function ErasureReportsPanel({ profileId }: { profileId: string }) {
  const reports = useCall('person.erasures', { profileId });
  const [open, setOpen] = useState<string | null>(null);
  if (reports.isError)
    return (
      <LoadErrorAlert
        title="The reports could not be read"
        error={reports.error}
        onRetry={() => void reports.refetch()}
      />
    );
  if (!reports.data) return <Skeleton height={160} />;
  if (reports.data.reports.length === 0)
    return (
      <Text size="sm" c="dimmed" data-testid="erasure-reports-empty">
        No one has been erased from this computer. Erase a person from their page (People and access → Users).
      </Text>
    );
  return (
    <Stack gap="md" data-testid="erasure-reports">
      <Table highlightOnHover verticalSpacing={6}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Person</Table.Th>
            <Table.Th>Asked by</Table.Th>
            <Table.Th>When</Table.Th>
            <Table.Th>State</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {reports.data.reports.map((report) => (
            <Table.Tr key={report.id}>
              <Table.Td>
                <Anchor
                  component="button"
                  type="button"
                  size="sm"
                  aria-expanded={open === report.id}
                  onClick={() => setOpen(open === report.id ? null : report.id)}
                >
                  {report.username}
                </Anchor>
              </Table.Td>
              <Table.Td>{report.requestedBy}</Table.Td>
              <Table.Td>{formatDateTime(report.requestedAt)}</Table.Td>
              <Table.Td>{report.state}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {open && <ErasureReportView report={reports.data.reports.find((r) => r.id === open)!} />}
    </Stack>
  );
}
