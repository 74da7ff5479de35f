/**
 * Giving one person a seat of a licence from its page: the person picked by name, username or email from the
 * tenant's directory, the seat given by the seat kind's create (`…/assignment/` with the licence and their email),
 * and the platform's refusal (no seat free, no such account, a seat held already) shown as it answered.
 */
import { Alert, Group, Stack } from '@mantine/core';
import { useState } from 'react';
import type { ResourceKind, SeatKind } from '../../../shared/resources';
import { errorMessage } from '../../bridge/errors';
import { WarningIcon } from '../../components/icons';
import { notifySuccess } from '../../components/notify';
import { useMutationCall } from '../../queries/useCall';
import { PersonSelect } from '../../resources/PersonSelect';
import { useWriteRefusal, WriteButton } from '../../resources/writeGate';

export function GiveSeat({
  profileId,
  licenseId,
  kind,
  onGiven,
}: {
  profileId: string;
  licenseId: number;
  kind: SeatKind;
  onGiven(): void;
}) {
  const [email, setEmail] = useState<string | null>(null);
  const give = useMutationCall('resources.create');
  const refusal = useWriteRefusal();

  return (
    <Stack gap={4}>
      <Group gap="sm" wrap="wrap" align="flex-end">
        <PersonSelect
          profileId={profileId}
          valueField="email"
          label="Give one person a seat"
          placeholder="Name, username or email"
          value={email}
          onChange={(value) => {
            setEmail(value);
            give.reset();
          }}
          w={320}
          data-testid="seat-person"
        />
        <WriteButton
          refusal={refusal}
          variant="default"
          disabled={!email}
          loading={give.isPending}
          onClick={() => {
            if (!email) return;
            give.mutate(
              { profileId, kind: kind as ResourceKind, values: { license_id: licenseId, email } },
              {
                onSuccess: () => {
                  notifySuccess('Seat given', `${email} holds a seat`);
                  setEmail(null);
                  onGiven();
                },
              },
            );
          }}
        >
          Give a seat
        </WriteButton>
      </Group>
      {give.isError && (
        <Alert color="red" icon={<WarningIcon />} title="No seat given" data-testid="seat-refused">
          {errorMessage(give.error)}
        </Alert>
      )}
    </Stack>
  );
}
