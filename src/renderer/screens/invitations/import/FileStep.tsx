import { CsvDropZone } from '../../../components/csv-import/CsvDropZone';
import { useMutationCall } from '../../../queries/useCall';
import { updateWizard } from '../wizardStore';

/** Drop or choose a CSV file of people (the shared drop zone); the engine opens it as a draft. */
export function FileStep({ profileId }: { profileId: string | undefined }) {
  const open = useMutationCall('invitations.importOpen');
  return (
    <CsvDropZone
      title="Drop a CSV file of people to invite"
      inputTestId="invite-file-input"
      onOpen={async (_name, path) => {
        const draft = await open.mutateAsync({ ...(profileId && { profileId }), path });
        updateWizard({ importId: draft.id, step: 'columns', jobId: null });
      }}
    />
  );
}
