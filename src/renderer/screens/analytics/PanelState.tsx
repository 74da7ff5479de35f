import { Alert, Button, Text } from '@mantine/core';
import { errorMessage } from '../../bridge/errors';

export type PanelState = 'loading' | 'error' | 'empty' | 'ready';

/** A skeleton until the first answer, the error if it failed, else the rows or "empty". */
export function panelState(loading: boolean, error: unknown, rows: readonly unknown[] | undefined): PanelState {
  return loading && !rows ? 'loading' : error && !rows ? 'error' : !rows?.length ? 'empty' : 'ready';
}

/** A panel that could not be loaded: why, and a way to ask again. */
export function LoadError({ title, error, onRetry }: { title: string; error: unknown; onRetry(): void }) {
  return (
    <Alert color="red" variant="light" title={title}>
      <Text size="sm">{errorMessage(error)}</Text>
      <Button size="xs" mt="xs" variant="default" onClick={onRetry}>
        Try again
      </Button>
    </Alert>
  );
}
