import { Badge, Group, Select, Text, type ComboboxItem, type SelectProps } from '@mantine/core';
import type { Profile } from '../../shared/contract';
import { PlusIcon, TenantIcon } from '../components/icons';
import { useCall } from '../queries/useCall';
import { useTenantEditor } from '../tenants/TenantEditorContext';
import { useSetActiveTenant } from '../tenants/useSetActiveTenant';

/** Mantine badges clip their label when squeezed ("SANDB…"); these never shrink. */
const WHOLE_BADGE = { minWidth: 'max-content', flexShrink: 0 } as const;

/** A pseudo-option: choosing it opens the add form instead of switching. */
const ADD_TENANT = '__add_tenant__';

/** The top bar's tenant picker: shows the active tenant and switches with `profiles.setActive`. */
export function TenantSwitcher() {
  const profiles = useCall('profiles.list', {});
  const editor = useTenantEditor();
  const { activate, isPending } = useSetActiveTenant();
  const list = profiles.data ?? [];
  const active = list.find((profile) => profile.isActive);

  function choose(value: string | null) {
    if (value === ADD_TENANT) return editor.openAdd();
    const chosen = list.find((profile) => profile.id === value);
    if (chosen && !chosen.isActive) activate(chosen);
  }

  const data: ComboboxItem[] = [
    ...list.map((profile) => ({ value: profile.id, label: profile.name })),
    { value: ADD_TENANT, label: 'Add tenant…' },
  ];

  return (
    <Select
      aria-label="Active tenant"
      placeholder={profiles.isPending ? 'Loading tenants…' : 'Choose a tenant'}
      data={data}
      value={active?.id ?? null}
      onChange={choose}
      allowDeselect={false}
      disabled={isPending || profiles.isError}
      leftSection={<TenantIcon size={16} />}
      renderOption={renderTenantOption(list)}
      w={{ base: 200, sm: 280 }}
      comboboxProps={{ width: 320, position: 'bottom-end' }}
      data-testid="tenant-switcher"
    />
  );
}

function renderTenantOption(profiles: Profile[]): SelectProps['renderOption'] {
  return function TenantOption({ option }) {
    if (option.value === ADD_TENANT) {
      return (
        <Group gap={8} c="var(--mantine-primary-color-filled)">
          <PlusIcon size={16} />
          <Text size="sm" fw={500} inherit>
            Add tenant…
          </Text>
        </Group>
      );
    }
    const profile = profiles.find((candidate) => candidate.id === option.value);
    return (
      <Group gap={8} wrap="nowrap" justify="space-between" w="100%">
        {/* Width 0 and grow: the dropdown's list sizes itself to its content's min-content width, which a long name
            would otherwise set (pushing the badges out); this way the name is truncated to the dropdown instead. */}
        <div style={{ width: 0, minWidth: 0, flex: 1 }}>
          <Text size="sm" truncate="end">
            {option.label}
          </Text>
          {/* Faded rather than "dimmed": it stays readable on the highlighted option's colour too. */}
          {profile && (
            <Text size="xs" truncate="end" style={{ opacity: 0.72 }}>
              {profile.org} · {hostOf(profile.baseUrl)}
            </Text>
          )}
        </div>
        {/* The badges keep their width; the name and address give way (truncated) instead. */}
        <Group gap={4} wrap="nowrap" style={{ flexShrink: 0 }}>
          {profile?.isSandbox && (
            <Badge size="xs" variant="light" color="grape" style={WHOLE_BADGE}>
              Sandbox
            </Badge>
          )}
          {profile?.isActive && (
            <Badge size="xs" variant="filled" color="teal" style={WHOLE_BADGE}>
              Active
            </Badge>
          )}
        </Group>
      </Group>
    );
  };
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
