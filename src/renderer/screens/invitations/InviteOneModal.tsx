import { Alert, Button, Group, Modal, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import type { InviteTarget } from '../../../shared/contract';
import { errorMessage } from '../../bridge/errors';
import { notifySuccess } from '../../components/notify';
import { useMutationCall } from '../../queries/useCall';

/** One invitation; the platform emails the person at once. */
export function InviteOneModal({
  profileId,
  target,
  opened,
  onClose,
}: {
  profileId: string | undefined;
  target: InviteTarget;
  opened: boolean;
  onClose: () => void;
}) {
  const [email, setEmail] = useState('');
  const [firstName, setFirstName] = useState('');
  const [lastName, setLastName] = useState('');
  const [redirectTo, setRedirectTo] = useState('');
  const [active, setActive] = useState(true);
  const create = useMutationCall('invitations.create');
  const close = () => {
    create.reset();
    setEmail('');
    setFirstName('');
    setLastName('');
    setRedirectTo('');
    onClose();
  };
  const where = target.kind === 'platform' ? 'the platform' : `this ${target.kind}`;
  return (
    <Modal opened={opened} onClose={close} title="Invite someone" centered>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          create.mutate(
            {
              ...(profileId && { profileId }),
              target,
              email,
              ...(firstName.trim() && { firstName }),
              ...(lastName.trim() && { lastName }),
              ...(redirectTo.trim() && { redirectTo }),
              active,
            },
            {
              onSuccess: (invitation) => {
                notifySuccess('Invitation sent', invitation.email ?? email);
                close();
              },
            },
          );
        }}
      >
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            The platform emails an invitation to {where}.
          </Text>
          <TextInput
            label="Email"
            required
            type="email"
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
          />
          <Group grow>
            <TextInput label="First name" value={firstName} onChange={(e) => setFirstName(e.currentTarget.value)} />
            <TextInput label="Last name" value={lastName} onChange={(e) => setLastName(e.currentTarget.value)} />
          </Group>
          <TextInput
            label="Redirect to"
            placeholder="https://… (where the link leads after sign-up)"
            value={redirectTo}
            onChange={(e) => setRedirectTo(e.currentTarget.value)}
          />
          <Switch label="Active" checked={active} onChange={(e) => setActive(e.currentTarget.checked)} />
          {create.isError && <Alert color="red">{errorMessage(create.error)}</Alert>}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              Send invitation
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
