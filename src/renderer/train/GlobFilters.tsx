import { Button, Group, Stack, TagsInput, Text } from '@mantine/core';
import { useForm } from '@mantine/form';

export interface Globs {
  include: string[];
  exclude: string[];
}

interface GlobFiltersProps {
  value: Globs;
  /** Runs the preview again with these globs. */
  onApply(globs: Globs): void;
  updating: boolean;
}

/** Include and exclude globs (matched against paths inside the dropped folder); applying re-runs the preview. */
export function GlobFilters({ value, onApply, updating }: GlobFiltersProps) {
  const form = useForm<Globs>({ mode: 'controlled', initialValues: value });
  const { include, exclude } = form.values;
  // Changed since the preview last ran: its counts are for the globs applied then.
  const changed = form.isDirty();

  function apply() {
    onApply(form.getValues());
    form.resetDirty();
  }

  return (
    <Stack gap={6}>
      <Text size="sm" fw={600}>
        Filters
      </Text>
      <TagsInput
        label="Include only"
        description="Globs such as **/*.pdf or week-*/**; press Enter after each"
        placeholder={include.length ? undefined : 'All files'}
        {...form.getInputProps('include')}
        splitChars={[',', ' ']}
        clearable
        size="xs"
      />
      <TagsInput
        label="Exclude"
        description="For example drafts/** or *.tmp"
        placeholder={exclude.length ? undefined : 'Nothing'}
        {...form.getInputProps('exclude')}
        splitChars={[',', ' ']}
        clearable
        size="xs"
      />
      <Group gap="xs">
        <Button size="xs" variant="light" disabled={!changed} loading={updating} onClick={apply}>
          Update preview
        </Button>
        {changed && (
          <Text size="xs" c="dimmed">
            The counts above are for the previous filters.
          </Text>
        )}
      </Group>
    </Stack>
  );
}
