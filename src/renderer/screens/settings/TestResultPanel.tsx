import { Alert, Group, Loader, Text } from '@mantine/core';
import type { ProfileTestResult } from '../../../shared/contract';
import { errorMessage } from '../../bridge/errors';
import { CheckCircleIcon, WarningIcon } from '../../components/icons';
import { outcomeColor, outcomeTitle } from './testOutcome';

export type TestRun =
  { state: 'running' } | { state: 'done'; result: ProfileTestResult } | { state: 'failed'; error: unknown };

interface TestResultPanelProps {
  tenantName: string;
  run: TestRun;
  onDismiss(): void;
}

/** What a connection test found, under the tenant's row; announced politely to screen readers. */
export function TestResultPanel({ tenantName, run, onDismiss }: TestResultPanelProps) {
  return (
    <div role="status" aria-live="polite" data-testid={`tenant-test-${tenantName}`}>
      {run.state === 'running' && <TestRunning tenantName={tenantName} />}
      {run.state === 'done' && <TestFinished result={run.result} onDismiss={onDismiss} />}
      {run.state === 'failed' && (
        <Alert
          color="red"
          title="The test could not run"
          icon={<WarningIcon />}
          withCloseButton
          closeButtonLabel="Dismiss test result"
          onClose={onDismiss}
        >
          {errorMessage(run.error)}
        </Alert>
      )}
    </div>
  );
}

function TestRunning({ tenantName }: { tenantName: string }) {
  return (
    <Group gap="sm" py="xs">
      <Loader size="sm" />
      <Text size="sm">Testing the connection to {tenantName}…</Text>
    </Group>
  );
}

function TestFinished({ result, onDismiss }: { result: ProfileTestResult; onDismiss(): void }) {
  return (
    <Alert
      color={outcomeColor(result.outcome)}
      title={outcomeTitle(result.outcome)}
      icon={result.ok ? <CheckCircleIcon /> : <WarningIcon />}
      withCloseButton
      closeButtonLabel="Dismiss test result"
      onClose={onDismiss}
    >
      <Text size="sm">{result.message}</Text>
      {result.hint && (
        <Text size="sm" mt={4}>
          <Text span fw={600} inherit>
            Next:{' '}
          </Text>
          {result.hint}
        </Text>
      )}
      <Text size="xs" c="dimmed" mt={6} ff="monospace">
        {[
          result.url,
          result.status !== undefined ? `HTTP ${result.status}` : null,
          `${Math.round(result.elapsedMs)} ms`,
        ]
          .filter(Boolean)
          .join(' · ')}
      </Text>
    </Alert>
  );
}
