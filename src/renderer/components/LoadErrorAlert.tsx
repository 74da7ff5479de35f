import { Alert, Button, Group, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { errorMessage } from '../bridge/errors';
import { asSentence } from '../lib/sentence';
import { useActiveTenant } from '../tenants/tenantContext';
import { useTenantEditor } from '../tenants/TenantEditorContext';
import { useTenantReach } from '../tenants/useTenantReach';
import { NOT_AVAILABLE_OFFLINE } from './FreshnessBar';
import { CloudOffIcon, WarningIcon } from './icons';
import { isUnreachable, nextStep } from './nextStep';

interface LoadErrorAlertProps {
  /** What could not be loaded, e.g. "Mentors could not be loaded". */
  title: string;
  error: unknown;
  onRetry?: () => void;
  /** Another way out, after Try again (e.g. "Back to mentors"). */
  action?: ReactNode;
  /** Words after the error's own (which then ends as a sentence), before the next step. */
  children?: ReactNode;
  'data-testid'?: string;
}

/**
 * A list or page that could not be loaded: the error in the platform's words, the next step when there is one
 * (with the tenant's editor one click away), and Try again. Every screen says it the same way. Out of reach while
 * the app's banner says so (with its Check again and Edit tenant), it only says this is not available offline.
 */
export function LoadErrorAlert({
  title,
  error,
  onRetry,
  action,
  children,
  'data-testid': testId = 'load-error',
}: LoadErrorAlertProps) {
  const step = nextStep(error);
  const { profile } = useActiveTenant();
  const bannerSaysWhy = useTenantReach().unreachable && isUnreachable(error);
  if (bannerSaysWhy) return <NotAvailableOffline action={action} />;
  return (
    <Alert
      color="red"
      variant="light"
      title={title}
      icon={isUnreachable(error) ? <CloudOffIcon /> : <WarningIcon />}
      role="alert"
      data-testid={testId}
    >
      <Text size="sm">
        {children ? asSentence(errorMessage(error)) : errorMessage(error)}
        {children}
      </Text>
      {step && (
        <Text size="sm" mt={4} data-testid="load-error-next">
          <Text span fw={600} inherit>
            Next:{' '}
          </Text>
          {step.text}
        </Text>
      )}
      {(onRetry || action || (step?.editTenant && profile)) && (
        <Group gap="xs" mt="xs">
          {onRetry && (
            <Button size="xs" variant="default" onClick={onRetry}>
              Try again
            </Button>
          )}
          {step?.editTenant && <EditTenantButton />}
          {action}
        </Group>
      )}
    </Alert>
  );
}

/**
 * What a screen or list shows in place of what it never read while the app's banner says the tenant cannot be reached
 * (and why, with Check again): only that it is not available offline.
 */
export function NotAvailableOffline({ action }: { action?: ReactNode }) {
  return (
    <Alert
      color="gray"
      variant="light"
      title={NOT_AVAILABLE_OFFLINE}
      icon={<CloudOffIcon />}
      role="status"
      data-testid="not-available-offline"
    >
      {action && <Group gap="xs">{action}</Group>}
    </Alert>
  );
}

/** Opens the active tenant's connection (address, key, Test connection); nothing without an active tenant. */
export function EditTenantButton() {
  const { profile } = useActiveTenant();
  const editor = useTenantEditor();
  if (!profile) return null;
  return (
    // Bordered like Try again: a subtle (blue text) button was hard to read on the dark theme's red alert.
    <Button size="xs" variant="default" onClick={() => editor.openEdit(profile)}>
      Edit tenant…
    </Button>
  );
}
