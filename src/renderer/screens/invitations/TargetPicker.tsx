import { Group, SegmentedControl, Select, Text } from '@mantine/core';
import type { InviteTarget } from '../../../shared/contract';
import { useCall } from '../../queries/useCall';

export type TargetKind = InviteTarget['kind'];

/** Platform, a course or a program; courses and programs are picked from the tenant's catalog. */
export function TargetPicker({
  profileId,
  value,
  onChange,
  label = 'Invite to',
}: {
  profileId: string | undefined;
  value: InviteTarget | { kind: 'course' | 'program'; id: '' };
  onChange: (target: InviteTarget | { kind: 'course' | 'program'; id: '' }) => void;
  label?: string;
}) {
  const courses = useCall(
    'invitations.courses',
    { ...(profileId && { profileId }) },
    { enabled: value.kind === 'course' },
  );
  const programs = useCall(
    'invitations.programs',
    { ...(profileId && { profileId }) },
    { enabled: value.kind === 'program' },
  );
  const list = value.kind === 'course' ? courses : programs;
  const items = value.kind === 'course' ? courses.data?.courses : programs.data?.programs;
  return (
    <Group gap="sm" align="flex-end" wrap="wrap">
      <div>
        <Text size="sm" fw={500} mb={4}>
          {label}
        </Text>
        <SegmentedControl
          aria-label={label}
          value={value.kind}
          onChange={(kind) =>
            onChange(kind === 'platform' ? { kind: 'platform' } : { kind: kind as 'course' | 'program', id: '' })
          }
          data={[
            { value: 'platform', label: 'Platform' },
            { value: 'course', label: 'Course' },
            { value: 'program', label: 'Program' },
          ]}
        />
      </div>
      {value.kind !== 'platform' && (
        <Select
          label={value.kind === 'course' ? 'Course' : 'Program'}
          placeholder={list.isPending ? 'Loading…' : `Choose a ${value.kind}`}
          searchable
          w={340}
          value={value.id || null}
          data={(items ?? []).map((item) => ({ value: item.id, label: item.name }))}
          error={list.isError ? list.error.message : undefined}
          onChange={(id) => onChange(id ? { kind: value.kind, id } : { kind: value.kind, id: '' })}
          nothingFoundMessage="Nothing matches"
        />
      )}
    </Group>
  );
}

export function isComplete(target: InviteTarget | { kind: 'course' | 'program'; id: '' }): target is InviteTarget {
  return target.kind === 'platform' || target.id !== '';
}
