/** Defining a badge: name, description, criteria, its course, and its image (checked before it is uploaded). */
import { Alert, Button, Group, Modal, Select, Stack, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { errorMessage } from '../../bridge/errors';
import { useCall, useMutationCall } from '../../queries/useCall';
import { ImageField } from '../../resources/fields/ImageField';
import { notifySuccess } from '../../components/notify';

export function BadgeForm({
  opened,
  onClose,
  onDefined,
}: {
  opened: boolean;
  onClose(): void;
  onDefined(id: string): void;
}) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [criteria, setCriteria] = useState('');
  const [course, setCourse] = useState<string | null>(null);
  const [image, setImage] = useState('');
  const [imageError, setImageError] = useState<string | null>(null);
  const [nameError, setNameError] = useState<string | null>(null);
  const courses = useCall('invitations.courses', {}, { enabled: opened });
  const define = useMutationCall('badges.define');

  function close() {
    setName('');
    setDescription('');
    setCriteria('');
    setCourse(null);
    setImage('');
    setImageError(null);
    setNameError(null);
    define.reset();
    onClose();
  }

  function submit() {
    if (!name.trim()) {
      setNameError('Enter a name');
      return;
    }
    if (imageError) return;
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
    <Modal opened={opened} onClose={close} title="Define a badge" size="lg">
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
          <ImageField
            id="badge-image"
            label="Image"
            description="PNG, JPEG, GIF, WebP or SVG: checked here before it is uploaded."
            value={image}
            current={null}
            error={imageError ?? undefined}
            onChange={setImage}
            onError={setImageError}
          />
          {define.isError && (
            <Alert color="red" title="Not defined" role="alert">
              {errorMessage(define.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={define.isPending}>
              Define badge
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
