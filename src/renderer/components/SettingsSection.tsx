import { Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useId, type ReactNode } from 'react';

interface SettingsSectionProps {
  title: string;
  description: string;
  /** A primary action shown at the right of the heading. */
  action?: ReactNode;
  children: ReactNode;
}

/** A titled card; the heading labels the region so screen readers can jump between sections. */
export function SettingsSection({ title, description, action, children }: SettingsSectionProps) {
  const headingId = useId();
  return (
    <Paper component="section" aria-labelledby={headingId} withBorder radius="md" p="lg">
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <div>
            <Title order={2} size="h4" id={headingId}>
              {title}
            </Title>
            <Text size="sm" c="dimmed" mt={4}>
              {description}
            </Text>
          </div>
          {action && <div style={{ flexShrink: 0 }}>{action}</div>}
        </Group>
        {children}
      </Stack>
    </Paper>
  );
}
