import { Alert, Button, Code, Group, Stack, Text } from '@mantine/core';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { WarningIcon } from '../components/icons';

interface ErrorBoundaryProps {
  /** What broke, in the fallback's title, e.g. "This screen". */
  area: string;
  children: ReactNode;
}

interface ErrorBoundaryState {
  error: Error | null;
}

/** Keeps one broken screen from blanking the whole window, and offers a way back. */
export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { error: null };

  static getDerivedStateFromError(error: Error): ErrorBoundaryState {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error(`${this.props.area} crashed`, error, info.componentStack);
  }

  override render(): ReactNode {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <Alert color="red" variant="light" title={`${this.props.area} stopped working`} icon={<WarningIcon />} m="md">
        <Stack gap="sm" align="flex-start">
          <Text size="sm">Something unexpected happened. Your data is safe; try again or reload the app.</Text>
          <Code block>{error.message}</Code>
          <Group gap="sm">
            <Button size="xs" onClick={() => this.setState({ error: null })}>
              Try again
            </Button>
            <Button size="xs" variant="default" onClick={() => window.location.reload()}>
              Reload app
            </Button>
          </Group>
        </Stack>
      </Alert>
    );
  }
}
