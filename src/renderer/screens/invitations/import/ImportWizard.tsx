import { Alert, Button, Skeleton, Stepper } from '@mantine/core';
import { errorMessage } from '../../../bridge/errors';
import { useCall } from '../../../queries/useCall';
import { resetWizard, STEPS, useWizard } from '../wizardStore';
import { ColumnsStep } from './ColumnsStep';
import { ConfirmStep } from './ConfirmStep';
import { FileStep } from './FileStep';
import { ReviewStep } from './ReviewStep';
import { SendStep } from './SendStep';
import { TargetStep } from './TargetStep';

/** File → columns → target → review and fix → confirm → send. Going back keeps every fix: the rows live in the engine. */
export function ImportWizard({ profileId }: { profileId: string | undefined }) {
  const wizard = useWizard();
  const draft = useCall('invitations.importGet', { id: wizard.importId ?? '' }, { enabled: !!wizard.importId });
  const job = useCall('jobs.get', { id: wizard.jobId ?? '' }, { enabled: wizard.step === 'send' && !!wizard.jobId });
  // Once the job has sent everything, the last step is done too: every step gets its check.
  const active = wizard.step === 'send' && job.data?.state === 'completed' ? STEPS.length : STEPS.indexOf(wizard.step);
  const needsDraft = wizard.step !== 'file' && wizard.step !== 'send';

  return (
    <>
      <Stepper
        active={active}
        size="xs"
        iconSize={28}
        wrap={false}
        allowNextStepsSelect={false}
        mb="lg"
        data-testid="wizard-steps"
        styles={{ separator: { marginInline: 'var(--mantine-spacing-xs)', minWidth: 12 } }}
      >
        <Stepper.Step label="File" />
        <Stepper.Step label="Columns" />
        <Stepper.Step label="Where" />
        <Stepper.Step label="Review" />
        <Stepper.Step label="Confirm" />
        <Stepper.Step label="Send" />
      </Stepper>
      {wizard.step === 'file' && <FileStep profileId={profileId} />}
      {needsDraft && draft.isPending && <Skeleton height={200} />}
      {needsDraft && draft.isError && (
        <Alert color="red" title="This import is gone">
          {errorMessage(draft.error)}{' '}
          <Button size="xs" variant="default" onClick={resetWizard}>
            Start again
          </Button>
        </Alert>
      )}
      {draft.data && wizard.step === 'columns' && <ColumnsStep draft={draft.data} />}
      {draft.data && wizard.step === 'target' && <TargetStep draft={draft.data} />}
      {draft.data && wizard.step === 'review' && <ReviewStep draft={draft.data} />}
      {draft.data && wizard.step === 'confirm' && <ConfirmStep draft={draft.data} />}
      {wizard.step === 'send' && wizard.jobId && <SendStep jobId={wizard.jobId} />}
    </>
  );
}
