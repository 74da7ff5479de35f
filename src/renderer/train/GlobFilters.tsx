import { Button, Group, Stack, TagsInput, Text } from '@mantine/core';
import { useState } from 'react';

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

const same = (a: string[], b: string[]) => a.length === b.length && a.every((item, index) => item === b[index]);

/** Include and exclude globs (matched against paths inside the dropped folder); applying re-runs the preview. */
export function GlobFilters({ value, onApply, updating }: GlobFiltersProps) {
  const [include, setInclude] = useState(value.include);
  const [exclude, setExclude] = useState(value.exclude);
  const changed = !same(include, value.include) || !same(exclude, value.exclude);

  return (
    <Stack gap={6}>
      <Text size="sm" fw={600}>
        Filters
      </Text>
      <TagsInput
        label="Include only"
        description="Globs such as **/*.pdf or week-*/**; press Enter after each"
        placeholder={include.length ? undefined : 'All files'}
        value={include}
        onChange={setInclude}
        splitChars={[',', ' ']}
        clearable
        size="xs"
      />
      <TagsInput
        label="Exclude"
        description="For example drafts/** or *.tmp"
        placeholder={exclude.length ? undefined : 'Nothing'}
        value={exclude}
        onChange={setExclude}
        splitChars={[',', ' ']}
        clearable
        size="xs"
      />
      <Group gap="xs">
        <Button
          size="xs"
          variant="light"
          disabled={!changed}
          loading={updating}
          onClick={() => onApply({ include, exclude })}
        >
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
