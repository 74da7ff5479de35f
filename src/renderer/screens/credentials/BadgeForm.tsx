/**
 * Defining a badge (name, description, criteria, its course, its image) or editing one (the same but its course: the
 * platform's edit takes no course). The image is checked before it is uploaded.
 */
import { Alert, Button, Group, Modal, Select, Stack, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import type { Badge } from '../../../shared/contract';
import { errorMessage } from '../../bridge/errors';
import { useCall, useMutationCall } from '../../queries/useCall';
import { ImageField } from '../../resources/fields/ImageField';
import { notifySuccess } from '../../components/notify';

export function BadgeForm({
  opened,
  onClose,
  onDefined,
  editing,
}: {
  opened: boolean;
  onClose(): void;
  onDefined(id: string): void;
  /** The badge being edited; left out, a new one is defined. */
  editing?: Badge;
}) {
  const [name, setName] = useState(editing?.name ?? '');
  const [description, setDescription] = useState(editing?.description ?? '');
  const [criteria, setCriteria] = useState(editing?.criteria ?? '');
  const [course, setCourse] = useState<string | null>(null);
  const [image, setImage] = useState('');
  const [imageError, setImageError] = useState<string | null>(null);
  const [nameError, setNameError] = useState<string | null>(null);
  const courses = useCall('invitations.courses', {}, { enabled: opened && !editing });
  const define = useMutationCall('badges.define');
  const update = useMutationCall('badges.update');
  const saving = editing ? update : define;

  function close() {
    setName(editing?.name ?? '');
    setDescription(editing?.description ?? '');
    setCriteria(editing?.criteria ?? '');
    setCourse(null);
    setImage('');
    setImageError(null);
    setNameError(null);
    define.reset();
    update.reset();
    onClose();
  }

  function submit() {
    if (!name.trim()) {
      setNameError('Enter a name');
      return;
    }
    if (imageError) return;
    if (editing) {
      update.mutate(
        { badge: editing.id, name, description, criteria, ...(image && { image }) },
        {
          onSuccess: ({ badge, warning }) => {
            notifySuccess('Badge saved', warning ? `${badge.name} (${warning})` : badge.name);
            close();
          },
        },
      );
      return;
    }
    define.mutate(
      { name, description, criteria, ...(course && { course }), ...(image && { image }) },
      {
        onSuccess: ({ badge, warning }) => {
          notifySuccess('Badge defined', warning ? `${badge.name} (${warning})` : badge.name);
          onDefined(badge.id);
          close();
        },
      },
    );
  }

  return (
    <Modal opened={opened} onClose={close} title={editing ? `Edit “${editing.name}”` : 'Define a badge'} size="lg">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <Stack gap="sm">
          <TextInput
            label="Name"
            required
            data-autofocus
            value={name}
            error={nameError}
            onChange={(e) => {
              setName(e.currentTarget.value);
              setNameError(null);
            }}
          />
          <Textarea
            label="Description"
            autosize
            minRows={2}
            value={description}
            onChange={(e) => setDescription(e.currentTarget.value)}
          />
          <Textarea
            label="Criteria"
            description="What someone does to earn it."
            autosize
            minRows={2}
            value={criteria}
            onChange={(e) => setCriteria(e.currentTarget.value)}
          />
          {!editing && (
            <Select
              label="Course"
              description="Optional: the course whose completers earn it."
              placeholder={courses.isLoading ? 'Loading courses…' : 'No course'}
              data={(courses.data?.courses ?? []).map((c) => ({ value: c.id, label: `${c.name} (${c.id})` }))}
              value={course}
              onChange={setCourse}
              searchable
              clearable
              nothingFoundMessage="No course matches"
              error={courses.error ? errorMessage(courses.error) : null}
            />
          )}
          <ImageField
            id="badge-image"
            label="Image"
            description="PNG, JPEG, GIF, WebP or SVG: checked here before it is uploaded."
            value={image}
            current={editing?.image || null}
            error={imageError ?? undefined}
            onChange={setImage}
            onError={setImageError}
          />
          {saving.isError && (
            <Alert color="red" title={editing ? 'Not saved' : 'Not defined'} role="alert">
              {errorMessage(saving.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={saving.isPending}>
              {editing ? 'Save changes' : 'Define badge'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
