import type { MantineColor } from '@mantine/core';
import { MENTOR_VISIBILITIES, type MentorVisibility } from '../../../shared/contract';

export const VISIBILITY_INFO: Record<MentorVisibility, { label: string; description: string; color: MantineColor }> = {
  viewable_by_tenant_admins: {
    label: 'Tenant admins',
    description: 'Only administrators of this tenant can chat with it',
    color: 'grape',
  },
  viewable_by_tenant_students: {
    label: 'Tenant students',
    description: 'Everyone in this tenant, students included',
    color: 'indigo',
  },
  viewable_by_anyone: { label: 'Anyone', description: 'Public: anyone with the link', color: 'teal' },
};

export const VISIBILITY_OPTIONS = MENTOR_VISIBILITIES.map((value) => ({
  value,
  label: VISIBILITY_INFO[value].label,
}));
