import { Button, Group, Kbd, Text } from '@mantine/core';

/** The body of a status change's notification: Undo, and the key that does the same from the queue. */
export function UndoNote({ onUndo }: { onUndo(): void }) {
  return (
    <Group gap="xs" justify="space-between" wrap="nowrap">
      <Text size="sm">
        Press <Kbd size="xs">z</Kbd> in the queue to undo.
      </Text>
      <Button size="compact-xs" variant="light" onClick={onUndo}>
        Undo
      </Button>
    </Group>
  );
}
