import { Modal, Radio, Stack, Textarea, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { MentorVisibility, type BridgeError, type Mentor } from '../../../shared/contract';
import { saveErrors } from '../../bridge/errors';
import { FormFooter } from '../../components/FormFooter';
import { notifySuccess } from '../../components/notify';
import { useMutationCall } from '../../queries/useCall';
import { MENTOR_VISIBILITIES } from '../../../shared/contract';
import { VISIBILITY_INFO } from './visibility';

export type MentorEditorTarget = { mode: 'create' } | { mode: 'edit'; mentor: Mentor };

interface MentorFormModalProps {
  profileId: string;
  target: MentorEditorTarget | null;
  onClose(): void;
  onSaved?(mentor: Mentor): void;
}

type Field = 'name' | 'description' | 'visibility';

/** Issues about a field go under it (the first one each); the rest go to the form's alert. */
function splitIssues(issues: NonNullable<BridgeError['issues']>) {
  const fields: Partial<Record<Field, string>> = {};
  const other: string[] = [];
  for (const issue of issues) {
    const field = issue.path.split('.')[0] as Field;
    if (field === 'name' || field === 'description' || field === 'visibility') fields[field] ??= issue.message;
    else other.push(issue.message);
  }
  return { fields, other };
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
  const [name, setName] = useState(editing?.name ?? '');
  const [description, setDescription] = useState(editing?.description ?? '');
  const [visibility, setVisibility] = useState<MentorVisibility>(editing?.visibility ?? 'viewable_by_tenant_students');
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const create = useMutationCall('mentors.create');
  const update = useMutationCall('mentors.update');
  const saving = create.isPending || update.isPending;

  function showError(error: unknown) {
    const { fields, form } = saveErrors(error, splitIssues);
    setErrors(fields);
    setFormError(form);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setErrors({});
    setFormError(null);
    try {
      let saved: Mentor;
      if (editing) {
        const changes = {
          ...(name !== editing.name ? { name } : {}),
          ...(description !== editing.description ? { description } : {}),
          ...(visibility !== editing.visibility ? { visibility } : {}),
        };
        saved = Object.keys(changes).length
          ? await update.mutateAsync({ profileId, mentor: editing.uniqueId, ...changes })
          : editing;
      } else {
        saved = await create.mutateAsync({ profileId, name, description, visibility });
      }
      notifySuccess(editing ? 'Mentor saved' : 'Mentor created', `${saved.name} is saved.`);
      onSaved(saved);
    } catch (error) {
      showError(error);
    }
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TextInput
          label="Name"
          placeholder="Biology 101 tutor"
          required
          data-autofocus
          maxLength={255}
          value={name}
          error={errors.name}
          onChange={(event) => setName(event.currentTarget.value)}
        />
        <Textarea
          label="Description"
          description="Shown to learners next to the mentor's name"
          placeholder="Helps first-year students with the course material"
          autosize
          minRows={2}
          maxRows={6}
          value={description}
          error={errors.description}
          onChange={(event) => setDescription(event.currentTarget.value)}
        />
        <Radio.Group
          label="Who can use it"
          value={visibility}
          onChange={(value) => setVisibility(MentorVisibility.parse(value))}
          error={errors.visibility}
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
