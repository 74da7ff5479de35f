/**
 * Issuing a badge to the people of a CSV file (`badges.import`, a `badge-assertions` job): the file, then a dry run
 * that says what each row would do, then "Import now" — the people-file import's own steps (CsvDropZone, ImportJob).
 */
import { Alert, Modal, Stepper } from '@mantine/core';
import { useState } from 'react';
import type { Badge } from '../../../shared/contract';
import { errorMessage } from '../../bridge/errors';
import { CsvDropZone } from '../../components/csv-import/CsvDropZone';
import { useMutationCall } from '../../queries/useCall';
import { ImportJob, type ImportOutcome } from '../../resources/ResourceImportModal';

/** The badge import's outcomes (engine/badges/import.ts), in an issuance's words. */
const BADGE_OUTCOMES: readonly ImportOutcome[] = [
  ['issued', 'issued', 'teal'],
  ['wouldIssue', 'would be issued', 'teal'],
  ['already', 'already hold it', 'gray'],
  ['unknown', 'unknown', 'orange'],
  ['invalid', 'invalid', 'red'],
  ['failed', 'failed', 'red'],
];

export function BadgeImportModal({ badge, opened, onClose }: { badge: Badge; opened: boolean; onClose(): void }) {
  const [file, setFile] = useState<{ path: string } | null>(null);
  const [job, setJob] = useState<{ id: string; dryRun: boolean } | null>(null);
  const start = useMutationCall('badges.import');
  const run = async (path: string, dryRun: boolean) => {
    const answer = await start.mutateAsync({ badge: badge.id, path, dryRun });
    setFile({ path });
    setJob({ id: answer.job.id, dryRun });
  };
  const reset = () => {
    setFile(null);
    setJob(null);
    start.reset();
  };
  const close = () => {
    reset();
    onClose();
  };
  return (
    <Modal opened={opened} onClose={close} title={`Issue “${badge.name}” from CSV`} size="min(1100px, 96vw)">
      <Stepper active={job ? (job.dryRun ? 1 : 2) : 0} size="xs" iconSize={28} wrap={false} mb="lg">
        <Stepper.Step label="File" />
        <Stepper.Step label="Dry run" />
        <Stepper.Step label="Issue" />
      </Stepper>
      {!job && (
        <>
          <CsvDropZone
            title="Drop a CSV file of people"
            hint="A column with each person’s email or username (headers are matched as in the invitations import). A dry run comes first: it says what each row would do and sends nothing."
            inputTestId="badge-import-file"
            onOpen={(_name, path) => run(path, true)}
          />
          {start.isError && (
            <Alert color="red" title="This file cannot be imported" mt="md">
              {errorMessage(start.error)}
            </Alert>
          )}
        </>
      )}
      {job && (
        <ImportJob
          key={job.id}
          jobId={job.id}
          membership
          outcomes={BADGE_OUTCOMES}
          dryRun={job.dryRun}
          onAnother={reset}
          onClose={close}
          onSend={() => void run(file!.path, false)}
        />
      )}
    </Modal>
  );
}
