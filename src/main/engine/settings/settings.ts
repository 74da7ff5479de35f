import type { Settings } from '../../../shared/contract';

/**
 * New-ticket notifications are opt-in; a job that ends is told by default (only while the window is in the background).
 * A job waits an hour for an unreachable tenant: long enough to ride out a restart, a deploy or a dropped VPN (its
 * tries back off to one a minute), short enough that a background process does not linger for days on a tenant that
 * is gone or mistyped; the job then pauses, resumable, saying why.
 */
export const DEFAULTS: Settings = {
  theme: 'system',
  notifyNewTickets: false,
  notifyJobEnds: true,
  navigation: 'auto',
  formatLocale: 'system',
  jobWaitLimitMinutes: 60,
};
