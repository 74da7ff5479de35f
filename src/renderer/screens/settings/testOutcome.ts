import type { MantineColor } from '@mantine/core';
import type { TestOutcome } from '../../../shared/contract';

/** A short headline per outcome; the engine's message and hint carry the details. */
const OUTCOME_TITLES: Record<TestOutcome, string> = {
  ok: 'Connection works',
  auth_failed: 'Key rejected',
  forbidden: 'Not allowed',
  not_found: 'Not found',
  unreachable: 'Cannot reach the tenant',
  tls_error: 'Secure connection failed',
  timeout: 'Timed out',
  no_secret: 'No key to send',
  server_error: 'Tenant server error',
  unexpected: 'Unexpected answer',
};

export function outcomeTitle(outcome: TestOutcome): string {
  return OUTCOME_TITLES[outcome];
}

export function outcomeColor(outcome: TestOutcome): MantineColor {
  if (outcome === 'ok') return 'teal';
  // Problems the admin fixes in the form are warnings; the rest are failures.
  return outcome === 'no_secret' || outcome === 'auth_failed' ? 'orange' : 'red';
}
