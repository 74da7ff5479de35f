import { Anchor, Badge, Checkbox, Group, Stack, Table, Text, Tooltip } from '@mantine/core';
import type { Mentor } from '../../../shared/contract';
import { EditIcon, TrashIcon, UploadIcon } from '../../components/icons';
import { WriteIcon } from '../../resources/writeGate';
import { mentorHref } from '../../shell/routes';
import { formatDateTime } from '../../lib/format';
import { useMentorDropTarget } from '../../train/useMentorDropTarget';
import { VISIBILITY_INFO } from './visibility';

interface MentorRowProps {
  profileId: string;
  mentor: Mentor;
  onEdit(): void;
  onDelete(): void;
  /** Why edit and delete are off (the tenant is out of reach), or null. */
  writeRefusal: string | null;
  /** Chosen for a change of settings across mentors. */
  selected: boolean;
  onSelect(selected: boolean): void;
}

/** One mentor; the whole row is a drop target that trains this mentor (after a preview). */
export function MentorRow({ profileId, mentor, onEdit, onDelete, writeRefusal, selected, onSelect }: MentorRowProps) {
  const { over, props } = useMentorDropTarget({ profileId, uniqueId: mentor.uniqueId, name: mentor.name });
  const nameId = `mentor-name-${mentor.uniqueId}`;
  const visibility = mentor.visibility ? VISIBILITY_INFO[mentor.visibility] : null;
  return (
    <Table.Tr
      {...props}
      data-testid={`mentor-row-${mentor.name}`}
      style={
        over
          ? {
              background: 'var(--mantine-primary-color-light)',
              outline: '2px dashed var(--mantine-primary-color-filled)',
              outlineOffset: -2,
            }
          : undefined
      }
    >
      <Table.Td>
        <Checkbox
          aria-label={`Select ${mentor.name}`}
          checked={selected}
          onChange={(event) => onSelect(event.currentTarget.checked)}
        />
      </Table.Td>
      <Table.Td>
        <Stack gap={2}>
          <Anchor id={nameId} href={mentorHref(mentor.uniqueId)} fw={600} size="sm" underline="hover">
            {mentor.name}
          </Anchor>
          {over ? (
            <Group gap={4} c="var(--mantine-primary-color-filled)">
              <UploadIcon size={14} />
              <Text size="xs" fw={500} inherit>
                Drop to preview training for {mentor.name}
              </Text>
            </Group>
          ) : (
            mentor.description && (
              <Text size="xs" c="dimmed" lineClamp={1} maw={560}>
                {mentor.description}
              </Text>
            )
          )}
        </Stack>
      </Table.Td>
      <Table.Td>
        {visibility ? (
          <Tooltip label={visibility.description} withArrow>
            <Badge variant="light" color={visibility.color} radius="sm" style={{ minWidth: 'max-content' }}>
              {visibility.label}
            </Badge>
          </Tooltip>
        ) : (
          <Text size="sm" c="dimmed">
            —
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
          {formatDateTime(mentor.updatedAt ?? mentor.createdAt)}
        </Text>
      </Table.Td>
      <Table.Td>
        <Group gap={4} wrap="nowrap" justify="flex-end">
          <WriteIcon
            refusal={writeRefusal}
            label={`Edit ${mentor.name}`}
            variant="subtle"
            color="gray"
            onClick={onEdit}
          >
            <EditIcon />
          </WriteIcon>
          <WriteIcon
            refusal={writeRefusal}
            label={`Delete ${mentor.name}`}
            variant="subtle"
            color="red"
            onClick={onDelete}
          >
            <TrashIcon />
          </WriteIcon>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}
