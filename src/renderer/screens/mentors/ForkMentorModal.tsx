import { Checkbox, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { calls, type Mentor } from '../../../shared/contract';
import { FormFooter } from '../../components/FormFooter';
import { notifySuccess } from '../../components/notify';
import { contractResolver, showSaveError, topLevelField } from '../../lib/forms';
import { useMutationCall } from '../../queries/useCall';
import { mentorHref, navigateTo } from '../../shell/routes';

interface ForkMentorModalProps {
  profileId: string;
  /** The mentor to fork; the dialog is open while it is set. */
  mentor: Mentor | null;
  onClose(): void;
}

const fieldOf = topLevelField(['name', 'cloneDocuments']);

/** Names the new mentor a fork makes (and whether its documents come along), then opens it. */
export function ForkMentorModal({ profileId, mentor, onClose }: ForkMentorModalProps) {
  return (
    <Modal opened={mentor !== null} onClose={onClose} title={mentor ? `Fork ${mentor.name}` : ''} centered size="lg">
      {mentor && <ForkForm key={mentor.uniqueId} profileId={profileId} mentor={mentor} onClose={onClose} />}
    </Modal>
  );
}

function ForkForm({ profileId, mentor, onClose }: { profileId: string; mentor: Mentor; onClose(): void }) {
  const form = useForm({
    mode: 'controlled',
    initialValues: { name: `${mentor.name} (fork)`, cloneDocuments: false },
    validate: contractResolver(
      calls['mentors.fork'].input,
      (values: { name: string; cloneDocuments: boolean }) => ({ profileId, mentor: mentor.uniqueId, ...values }),
      fieldOf,
    ),
  });
  const fork = useMutationCall('mentors.fork');
  const [formError, setFormError] = useState<string | null>(null);

  async function submit(values: { name: string; cloneDocuments: boolean }) {
    setFormError(null);
    try {
      const forked = await fork.mutateAsync({ profileId, mentor: mentor.uniqueId, ...values });
      notifySuccess('Mentor forked', `${forked.name} is a new mentor made from ${mentor.name}.`);
      onClose();
      navigateTo(mentorHref(forked.uniqueId));
    } catch (error) {
      setFormError(showSaveError(form, error, fieldOf));
    }
  }

  return (
    <form
      onSubmit={form.onSubmit(
        (values) => void submit(values),
        () => setFormError(null),
      )}
      noValidate
    >
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          The new mentor gets this one’s settings. Its shareable link, chats and learners’ memory stay with{' '}
          {mentor.name}.
        </Text>
        <TextInput
          label="Name of the new mentor"
          required
          data-autofocus
          maxLength={255}
          {...form.getInputProps('name')}
        />
        <Checkbox
          label="Copy its documents too"
          description="The platform copies the trained documents; without them the new mentor starts with none."
          {...form.getInputProps('cloneDocuments', { type: 'checkbox' })}
        />
        <FormFooter error={formError} saving={fork.isPending} submitLabel="Fork mentor" onCancel={onClose} />
      </Stack>
    </form>
  );
}
