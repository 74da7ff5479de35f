import { Alert, Button, Group, Modal, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { calls, type InviteTarget } from '../../../shared/contract';
import { notifySuccess } from '../../components/notify';
import { contractResolver, showSaveError, topLevelField } from '../../lib/forms';
import { useMutationCall } from '../../queries/useCall';

interface InviteValues {
  email: string;
  firstName: string;
  lastName: string;
  redirectTo: string;
  active: boolean;
}

const EMPTY: InviteValues = { email: '', firstName: '', lastName: '', redirectTo: '', active: true };
const fieldOf = topLevelField(Object.keys(EMPTY));

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
  /** What Send sends: the optional boxes only when something is typed in them. */
  const toInput = ({ email, firstName, lastName, redirectTo, active }: InviteValues) => ({
    ...(profileId && { profileId }),
    target,
    email,
    ...(firstName.trim() && { firstName }),
    ...(lastName.trim() && { lastName }),
    ...(redirectTo.trim() && { redirectTo }),
    active,
  });
  const form = useForm<InviteValues>({
    mode: 'controlled',
    initialValues: EMPTY,
    validate: contractResolver(calls['invitations.create'].input, toInput, fieldOf),
  });
  const [formError, setFormError] = useState<string | null>(null);
  const create = useMutationCall('invitations.create');
  const close = () => {
    create.reset();
    form.reset();
    setFormError(null);
    onClose();
  };
  const where = target.kind === 'platform' ? 'the platform' : `this ${target.kind}`;
  return (
    <Modal opened={opened} onClose={close} title="Invite someone" centered>
      <form
        onSubmit={form.onSubmit(
          (values) => {
            setFormError(null);
            create.mutate(toInput(values), {
              onSuccess: (invitation) => {
                notifySuccess('Invitation sent', invitation.email ?? values.email);
                close();
              },
              onError: (error) => setFormError(showSaveError(form, error, fieldOf)),
            });
          },
          () => setFormError(null),
        )}
      >
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            The platform emails an invitation to {where}.
          </Text>
          <TextInput label="Email" required type="email" {...form.getInputProps('email')} />
          <Group grow>
            <TextInput label="First name" {...form.getInputProps('firstName')} />
            <TextInput label="Last name" {...form.getInputProps('lastName')} />
          </Group>
          <TextInput
            label="Redirect to"
            placeholder="https://… (where the link leads after sign-up)"
            {...form.getInputProps('redirectTo')}
          />
          <Switch label="Active" {...form.getInputProps('active', { type: 'checkbox' })} />
          {formError && <Alert color="red">{formError}</Alert>}
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
