import type { QueryClient } from '@tanstack/react-query';
import type { EventName, EventPayload } from '../../../shared/contract';

const named = (prefix: string) => (query: { queryKey: readonly unknown[] }) =>
  String(query.queryKey[0]).startsWith(prefix);

/** Analytics events: refreshed answers, export progress (patched in place) and schedule changes. */
export function applyAnalyticsEvent(queryClient: QueryClient, name: EventName, payload: unknown): void {
  switch (name) {
    case 'analytics.changed': {
      // Only the tenant whose answer was refreshed.
      const { profileId } = payload as EventPayload<'analytics.changed'>;
      void queryClient.invalidateQueries({
        predicate: (q) =>
          named('analytics.')(q) &&
          (q.queryKey[1] as { profileId?: string } | undefined)?.profileId === profileId &&
          !['analytics.exports', 'analytics.export', 'analytics.schedules'].includes(String(q.queryKey[0])),
      });
      break;
    }
    case 'analytics.exportProgress': {
      const info = payload as EventPayload<'analytics.exportProgress'>;
      queryClient.setQueryData(['analytics.export', { id: info.id }], info);
      void queryClient.invalidateQueries({ queryKey: ['analytics.exports'] });
      break;
    }
    case 'analytics.schedulesChanged':
      void queryClient.invalidateQueries({ queryKey: ['analytics.schedules'] });
      void queryClient.invalidateQueries({ queryKey: ['analytics.exports'] });
      break;
    case 'jobs.changed': {
      const job = payload as EventPayload<'jobs.changed'>;
      if (job.kind !== 'export') return;
      void queryClient.invalidateQueries({ queryKey: ['analytics.export', { id: job.id }] });
      void queryClient.invalidateQueries({ queryKey: ['analytics.exports'] });
      void queryClient.invalidateQueries({ queryKey: ['analytics.schedules'] });
      break;
    }
  }
}
