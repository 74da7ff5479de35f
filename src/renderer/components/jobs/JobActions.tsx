import { ActionIcon, Alert, Button, Code, CopyButton, Group, Menu, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { Job } from '../../../shared/contract';
import { errorMessage } from '../../bridge/errors';
import { ConfirmModal } from '../ConfirmModal';
import { DotsIcon, DownloadIcon, PauseIcon, PlayIcon, StopIcon, WarningIcon } from '../icons';
import { notifyError } from '../notify';
import { useMutationCall } from '../../queries/useCall';
import { jobHref } from '../../shell/routes';
import { plural } from '../../lib/format';

/** What can be done with a job in its state (wherever it runs: the journal carries the request to its process). */
export function jobAbilities(job: Pick<Job, 'state'>) {
  const canPause = job.state === 'running' || job.state === 'queued' || job.state === 'waiting';
  const canResume = job.state === 'paused' || job.state === 'waiting';
  return { canPause, canResume, canCancel: canPause || canResume };
}

/** "Retry now" for a job that waits for its tenant; it tries at once. */
const resumeLabel = (job: Pick<Job, 'state'>) => (job.state === 'waiting' ? 'Retry now' : 'Resume');

/** Pause, resume, cancel (with a confirm) and the CSV report. */
export function JobActions({ job }: { job: Job }) {
  const pause = useMutationCall('jobs.pause');
  const resume = useMutationCall('jobs.resume');
  const exportReport = useMutationCall('jobs.exportReport');
  const [cancelling, setCancelling] = useState(false);
  const { canPause, canResume, canCancel } = jobAbilities(job);

  return (
    <Stack gap="xs" align="flex-end">
      <Group gap="xs">
        {canResume && (
          <Button
            leftSection={<PlayIcon size={16} />}
            loading={resume.isPending}
            onClick={() => resume.mutate({ id: job.id }, { onError: (error) => notifyError('Not resumed', error) })}
          >
            {resumeLabel(job)}
          </Button>
        )}
        {canPause && (
          <Button
            variant="default"
            leftSection={<PauseIcon size={16} />}
            loading={pause.isPending}
            onClick={() => pause.mutate({ id: job.id }, { onError: (error) => notifyError('Not paused', error) })}
          >
            Pause
          </Button>
        )}
        {canCancel && (
          <Button variant="subtle" color="red" leftSection={<StopIcon size={16} />} onClick={() => setCancelling(true)}>
            Cancel job
          </Button>
        )}
        <Button
          variant="default"
          leftSection={<DownloadIcon size={16} />}
          loading={exportReport.isPending}
          onClick={() => exportReport.mutate({ id: job.id })}
        >
          Export report (CSV)
        </Button>
      </Group>
      {exportReport.isSuccess && (
        <Alert
          color="teal"
          variant="light"
          withCloseButton
          closeButtonLabel="Dismiss"
          onClose={() => exportReport.reset()}
          title={`Report written: ${plural(exportReport.data.rows, 'row')}`}
          maw={560}
          role="status"
          data-testid="report-path"
        >
          <Group gap="xs" wrap="nowrap">
            <Code style={{ wordBreak: 'break-all' }}>{exportReport.data.path}</Code>
            <CopyButton value={exportReport.data.path}>
              {({ copied, copy }) => (
                <Button size="compact-xs" variant="subtle" onClick={copy}>
                  {copied ? 'Copied' : 'Copy path'}
                </Button>
              )}
            </CopyButton>
          </Group>
        </Alert>
      )}
      {exportReport.isError && (
        <Alert color="red" variant="light" icon={<WarningIcon />} title="No report written" maw={560}>
          {errorMessage(exportReport.error)}
        </Alert>
      )}
      <CancelJobModal job={cancelling ? job : null} onClose={() => setCancelling(false)} />
    </Stack>
  );
}

/** A row's actions in the Jobs list: open, pause, resume, cancel (asked first). */
export function JobRowMenu({ job }: { job: Job }) {
  const pause = useMutationCall('jobs.pause');
  const resume = useMutationCall('jobs.resume');
  const [cancelling, setCancelling] = useState(false);
  const { canPause, canResume, canCancel } = jobAbilities(job);
  return (
    <>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${job.title}`} data-testid="job-row-menu">
            <DotsIcon size={18} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item component="a" href={jobHref(job.id)}>
            Open
          </Menu.Item>
          {canResume && (
            <Menu.Item
              leftSection={<PlayIcon size={14} />}
              onClick={() => resume.mutate({ id: job.id }, { onError: (error) => notifyError('Not resumed', error) })}
            >
              {resumeLabel(job)}
            </Menu.Item>
          )}
          {canPause && (
            <Menu.Item
              leftSection={<PauseIcon size={14} />}
              onClick={() => pause.mutate({ id: job.id }, { onError: (error) => notifyError('Not paused', error) })}
            >
              Pause
            </Menu.Item>
          )}
          {canCancel && (
            <Menu.Item color="red" leftSection={<StopIcon size={14} />} onClick={() => setCancelling(true)}>
              Cancel job…
            </Menu.Item>
          )}
        </Menu.Dropdown>
      </Menu>
      <CancelJobModal job={cancelling ? job : null} onClose={() => setCancelling(false)} />
    </>
  );
}

function CancelJobModal({ job, onClose }: { job: Job | null; onClose(): void }) {
  const cancel = useMutationCall('jobs.cancel');
  return (
    <ConfirmModal
      target={job}
      title="Cancel this job?"
      mutation={cancel}
      failedTitle="Not cancelled"
      cancelLabel="Keep going"
      confirmLabel="Cancel job"
      onClose={onClose}
      onConfirm={(target, close) => cancel.mutate({ id: target.id }, { onSuccess: close })}
    >
      {(target) => {
        const left = target.progress.total - target.progress.done - target.progress.failed - target.progress.skipped;
        return (
          <Text>
            Cancel <strong>{target.title}</strong>? {left > 0 ? `${plural(left, 'item')} will not be done. ` : ''}
            What is done stays done.
          </Text>
        );
      }}
    </ConfirmModal>
  );
}
