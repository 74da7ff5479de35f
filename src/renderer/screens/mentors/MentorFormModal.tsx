import { Modal, Radio, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useForm, type UseFormReturnType } from '@mantine/form';
import { useState } from 'react';
import { calls, MENTOR_VISIBILITIES, MentorVisibility, type Mentor } from '../../../shared/contract';
import { FormFooter } from '../../components/FormFooter';
import { notifySuccess } from '../../components/notify';
import { changedValues, contractResolver, showSaveError, topLevelField } from '../../lib/forms';
import { useCall, useMutationCall } from '../../queries/useCall';
import { VISIBILITY_INFO } from './visibility';

export type MentorEditorTarget = { mode: 'create' } | { mode: 'edit'; mentor: Mentor };

interface MentorFormModalProps {
  profileId: string;
  target: MentorEditorTarget | null;
  onClose(): void;
  onSaved?(mentor: Mentor): void;
}

const FIELDS = ['name', 'description', 'visibility'] as const;
const fieldOf = topLevelField([...FIELDS, 'template']);

interface MentorFormValues {
  name: string;
  description: string;
  visibility: MentorVisibility;
  /** A template's slug (a new mentor only): made through the create-mentor wizard from it. */
  template: string;
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
  const toInput = (values: MentorFormValues): unknown => {
    if (editing) return { profileId, mentor: editing.uniqueId, ...changedValues(form, FIELDS) };
    const { template, ...fields } = values;
    return template ? { profileId, ...fields, template } : { profileId, ...fields };
  };
  const checkCreate = contractResolver(calls['mentors.create'].input, toInput, fieldOf);
  const checkWizard = contractResolver(calls['mentors.createWithWizard'].input, toInput, fieldOf);
  const checkUpdate = contractResolver(calls['mentors.update'].input, toInput, fieldOf);
  const form: UseFormReturnType<MentorFormValues> = useForm<MentorFormValues>({
    mode: 'controlled',
    initialValues: {
      name: editing?.name ?? '',
      description: editing?.description ?? '',
      visibility: editing?.visibility ?? 'viewable_by_tenant_students',
      template: '',
    },
    // The contract's rules (the platform's limits) over what Save sends: the engine's messages, before a round trip.
    // A mentor from a template goes through the wizard, whose description takes 20 to 1000 characters.
    validate: (values) => (editing ? checkUpdate : values.template ? checkWizard : checkCreate)(values),
  });
  const templates = useCall('mentors.templates', { profileId }, { enabled: !editing });
  const chosen = templates.data?.templates.find((t) => t.slug === form.getValues().template) ?? null;
  const [formError, setFormError] = useState<string | null>(null);
  const create = useMutationCall('mentors.create');
  const wizard = useMutationCall('mentors.createWithWizard');
  const update = useMutationCall('mentors.update');
  const saving = create.isPending || update.isPending || wizard.isPending;

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
        const { template, ...fields } = values;
        saved = template
          ? await wizard.mutateAsync({ profileId, ...fields, template })
          : await create.mutateAsync({ profileId, ...fields });
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
        {!editing && (
          <Select
            label="Start from"
            description={
              templates.isError
                ? 'The templates could not be read; a blank mentor can still be made.'
                : 'A template gives the new mentor its way of working; a blank mentor starts with the defaults.'
            }
            data={[
              { value: '', label: 'A blank mentor' },
              ...(templates.data?.templates ?? [])
                .filter((t) => t.slug)
                .map((t) => ({ value: t.slug!, label: t.name })),
            ]}
            allowDeselect={false}
            // Each choice says what it is: a template's name alone ("mentorAI") tells an admin little.
            renderOption={({ option }) => {
              const description = templates.data?.templates.find((t) => t.slug === option.value)?.description;
              return (
                <div>
                  <Text size="sm">{option.label}</Text>
                  <Text size="xs" c="dimmed" lineClamp={2}>
                    {option.value ? description : 'No template: the platform’s defaults.'}
                  </Text>
                </div>
              );
            }}
            {...form.getInputProps('template')}
            onChange={(value) => {
              const slug = value ?? '';
              form.setFieldValue('template', slug);
              const template = templates.data?.templates.find((t) => t.slug === slug);
              if (template?.description && !form.getValues().description.trim()) {
                form.setFieldValue('description', template.description);
              }
            }}
          />
        )}
        {chosen?.description && (
          <Text size="sm" c="dimmed" mt={-8}>
            {chosen.description}
          </Text>
        )}
        <TextInput
          label="Name"
          placeholder="Biology 101 tutor"
          required
          data-autofocus
          maxLength={chosen ? 100 : 255}
          {...form.getInputProps('name')}
        />
        <Textarea
          label="Description"
          description={
            chosen
              ? "Shown to learners next to the mentor's name; 20 to 1000 characters for a mentor from a template"
              : "Shown to learners next to the mentor's name"
          }
          required={!!chosen}
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
