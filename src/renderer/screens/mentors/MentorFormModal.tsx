import { Modal, Radio, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm, type UseFormReturnType } from '@mantine/form';
import { useState } from 'react';
import { calls, MENTOR_VISIBILITIES, MentorVisibility, type Mentor } from '../../../shared/contract';
import { FormFooter } from '../../components/FormFooter';
import { notifySuccess } from '../../components/notify';
import { changedValues, contractResolver, showSaveError, topLevelField } from '../../lib/forms';
import { useMutationCall } from '../../queries/useCall';
import { VISIBILITY_INFO } from './visibility';

export type MentorEditorTarget = { mode: 'create' } | { mode: 'edit'; mentor: Mentor };

interface MentorFormModalProps {
  profileId: string;
  target: MentorEditorTarget | null;
  onClose(): void;
  onSaved?(mentor: Mentor): void;
}

const FIELDS = ['name', 'description', 'visibility'] as const;
const fieldOf = topLevelField(FIELDS);

interface MentorFormValues {
  name: string;
  description: string;
  visibility: MentorVisibility;
}

/** Create a mentor, or edit its name, description and visibility. */
export function MentorFormModal({ profileId, target, onClose, onSaved }: MentorFormModalProps) {
  return (
    <Modal
      opened={target !== null}
      onClose={onClose}
      title={target?.mode === 'edit' ? `Edit ${target.mentor.name}` : 'New mentor'}
      centered
      size="lg"
    >
      {target && (
        <MentorForm
          key={target.mode === 'edit' ? target.mentor.uniqueId : 'create'}
          profileId={profileId}
          target={target}
          onCancel={onClose}
          onSaved={(mentor) => {
            onSaved?.(mentor);
            onClose();
          }}
        />
      )}
    </Modal>
  );
}

interface MentorFormProps {
  profileId: string;
  target: MentorEditorTarget;
  onCancel(): void;
  onSaved(mentor: Mentor): void;
}

function MentorForm({ profileId, target, onCancel, onSaved }: MentorFormProps) {
  const editing = target.mode === 'edit' ? target.mentor : null;
  /** What Save sends: everything for a new mentor; for an edit, only the fields the admin changed. */
  const toInput = (values: MentorFormValues): unknown =>
    editing ? { profileId, mentor: editing.uniqueId, ...changedValues(form, FIELDS) } : { profileId, ...values };
  const form: UseFormReturnType<MentorFormValues> = useForm<MentorFormValues>({
    mode: 'controlled',
    initialValues: {
      name: editing?.name ?? '',
      description: editing?.description ?? '',
      visibility: editing?.visibility ?? 'viewable_by_tenant_students',
    },
    // The contract's rules (the platform's limits) over what Save sends: the engine's messages, before a round trip.
    validate: contractResolver(
      editing ? calls['mentors.update'].input : calls['mentors.create'].input,
      toInput,
      fieldOf,
    ),
  });
  const [formError, setFormError] = useState<string | null>(null);
  const create = useMutationCall('mentors.create');
  const update = useMutationCall('mentors.update');
  const saving = create.isPending || update.isPending;

  async function submit(values: MentorFormValues) {
    setFormError(null);
    try {
      let saved: Mentor;
      if (editing) {
        const changes = changedValues(form, FIELDS);
        saved = Object.keys(changes).length
          ? await update.mutateAsync({ profileId, mentor: editing.uniqueId, ...changes })
          : editing;
      } else {
        saved = await create.mutateAsync({ profileId, ...values });
      }
      notifySuccess(editing ? 'Mentor saved' : 'Mentor created', `${saved.name} is saved.`);
      onSaved(saved);
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
        <TextInput
          label="Name"
          placeholder="Biology 101 tutor"
          required
          data-autofocus
          maxLength={255}
          {...form.getInputProps('name')}
        />
        <Textarea
          label="Description"
          description="Shown to learners next to the mentor's name"
          placeholder="Helps first-year students with the course material"
          autosize
          minRows={2}
          maxRows={6}
          {...form.getInputProps('description')}
        />
        <Radio.Group
          label="Who can use it"
          {...form.getInputProps('visibility')}
          onChange={(value) => form.setFieldValue('visibility', MentorVisibility.parse(value))}
        >
          <Stack gap="xs" mt={6}>
            {MENTOR_VISIBILITIES.map((value) => (
              <Radio
                key={value}
                value={value}
                label={VISIBILITY_INFO[value].label}
                description={VISIBILITY_INFO[value].description}
              />
            ))}
          </Stack>
        </Radio.Group>
        <FormFooter
          error={formError}
          saving={saving}
          submitLabel={editing ? 'Save changes' : 'Create mentor'}
          onCancel={onCancel}
        />
      </Stack>
    </form>
  );
}
