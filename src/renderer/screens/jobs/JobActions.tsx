import { Alert, Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { Job } from '../../../shared/contract';
import { errorMessage } from '../../bridge/errors';
import { ConfirmModal } from '../../components/ConfirmModal';
import { WarningIcon } from '../../components/icons';
import { notifyError } from '../../components/notify';
import { useMutationCall } from '../../queries/useCall';
import { plural } from '../../train/format';
import { DownloadIcon, PauseIcon, PlayIcon, StopIcon } from '../../train/icons';

/** Pause, resume, cancel (with a confirm) and the CSV report. */
export function JobActions({ job }: { job: Job }) {
  const pause = useMutationCall('jobs.pause');
  const resume = useMutationCall('jobs.resume');
  const exportReport = useMutationCall('jobs.exportReport');
  const [cancelling, setCancelling] = useState(false);
  const canPause = job.state === 'running' || job.state === 'queued' || job.state === 'waiting';
  const canResume = job.state === 'paused' || job.state === 'waiting';
  const canCancel = canPause || canResume;

  return (
    <Stack gap="xs" align="flex-end">
      <Group gap="xs">
        {canPause && job.state !== 'waiting' && (
          <Button
            variant="default"
            leftSection={<PauseIcon size={16} />}
            loading={pause.isPending}
            onClick={() => pause.mutate({ id: job.id }, { onError: (error) => notifyError('Not paused', error) })}
          >
            Pause
          </Button>
        )}
        {canResume && (
          <Button
            leftSection={<PlayIcon size={16} />}
            loading={resume.isPending}
            onClick={() => resume.mutate({ id: job.id }, { onError: (error) => notifyError('Not resumed', error) })}
          >
            {job.state === 'waiting' ? 'Retry now' : 'Resume'}
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
      <CancelJobModal job={job} opened={cancelling} onClose={() => setCancelling(false)} />
    </Stack>
  );
}

function CancelJobModal({ job, opened, onClose }: { job: Job; opened: boolean; onClose(): void }) {
  const cancel = useMutationCall('jobs.cancel');
  const left = job.progress.total - job.progress.done - job.progress.failed - job.progress.skipped;
  return (
    <ConfirmModal
      target={opened ? job : null}
      title="Cancel this job?"
      mutation={cancel}
      failedTitle="Not cancelled"
      cancelLabel="Keep going"
      confirmLabel="Cancel job"
      onClose={onClose}
      onConfirm={(target, close) => cancel.mutate({ id: target.id }, { onSuccess: close })}
    >
      {(target) => (
        <Text>
          Cancel <strong>{target.title}</strong>? {left > 0 ? `${plural(left, 'item')} will not be done. ` : ''}What is
          done stays done.
        </Text>
      )}
    </ConfirmModal>
  );
}
