import { useQueryClient, type Query, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { EventPayload, Job } from '../../shared/contract';
import { useEngineBridge } from '../bridge/BridgeContext';

type ListAnswer = { jobs: Job[]; total: number };

const nameOf = (key: readonly unknown[]) => String(key[0]);
const inputOf = (key: readonly unknown[]) => (key[1] ?? {}) as Record<string, unknown>;

/**
 * A progress tick patches the jobs already in the cache (the job page, the lists, the top bar) instead of
 * refetching them: ticks come several times a second while files upload. A patch is not a fetch: only answers that
 * hold the job are touched, they keep their age, and one already due for a refetch (a job was added or changed
 * state meanwhile) stays due; otherwise a list left while jobs ran came back without them.
 */
export function applyJobProgress(queryClient: QueryClient, event: EventPayload<'jobs.progress'>): void {
  const patch = (job: Job): Job =>
    job.id === event.id ? { ...job, state: event.state, progress: event.progress } : job;
  const cache = queryClient.getQueryCache();
  const patched = (query: Query, data: unknown) => {
    const { isInvalidated, dataUpdatedAt } = query.state;
    queryClient.setQueryData(query.queryKey, data, { updatedAt: dataUpdatedAt });
    if (isInvalidated)
      void queryClient.invalidateQueries({ queryKey: query.queryKey, exact: true, refetchType: 'none' });
  };
  for (const query of cache.findAll({ queryKey: ['jobs.get', { id: event.id }] })) {
    const job = query.state.data as Job | undefined;
    if (job) patched(query, patch(job));
  }
  for (const query of cache.findAll({ queryKey: ['jobs.list'] })) {
    const answer = query.state.data as ListAnswer | undefined;
    if (answer?.jobs.some((job) => job.id === event.id)) patched(query, { ...answer, jobs: answer.jobs.map(patch) });
  }
}

/** The kind of a job the cache already knows (the top bar keeps every running job in a list). */
function cachedKind(queryClient: QueryClient, id: string): Job['kind'] | undefined {
  const single = queryClient.getQueryData<Job>(['jobs.get', { id }]);
  if (single) return single.kind;
  for (const [, answer] of queryClient.getQueriesData<ListAnswer>({ queryKey: ['jobs.list'] })) {
    const job = answer?.jobs.find((candidate) => candidate.id === id);
    if (job) return job.kind;
  }
  return undefined;
}

/** A training job changes documents as it goes; their lists are asked again at most this often. */
const DOCUMENTS_DURING_TRAINING_MS = 3_000;

/** Mentors, documents and jobs: change events invalidate what they name; progress events patch the cache. */
export function useWorkEventSync(): void {
  // Every tenant's events: a tenant not on screen keeps true answers for the way back.
  const bridge = useEngineBridge();
  const queryClient = useQueryClient();
  useEffect(() => {
    let lastDocumentsCheck = 0;
    const documentsMayHaveChanged = (force: boolean) => {
      if (!force && Date.now() - lastDocumentsCheck < DOCUMENTS_DURING_TRAINING_MS) return;
      lastDocumentsCheck = Date.now();
      // Cheap: the engine answers from its cache and refreshes it when training marked it stale.
      void queryClient.invalidateQueries({ queryKey: ['documents.list'] });
    };
    return bridge.onEvent((event) => {
      switch (event.name) {
        case 'mentors.changed':
          void queryClient.invalidateQueries({
            predicate: ({ queryKey }) =>
              nameOf(queryKey).startsWith('mentors.') && inputOf(queryKey).profileId === event.payload.profileId,
          });
          break;
        case 'documents.changed':
          void queryClient.invalidateQueries({
            predicate: ({ queryKey }) =>
              nameOf(queryKey) === 'documents.list' &&
              inputOf(queryKey).profileId === event.payload.profileId &&
              inputOf(queryKey).mentor === event.payload.mentor,
          });
          break;
        case 'jobs.changed':
          void queryClient.invalidateQueries({
            predicate: ({ queryKey }) =>
              nameOf(queryKey) === 'jobs.list' ||
              (nameOf(queryKey) === 'train.jobs' && event.payload.kind === 'train') ||
              (nameOf(queryKey).startsWith('jobs.') && inputOf(queryKey).id === event.payload.id),
          });
          if (event.payload.kind === 'train') documentsMayHaveChanged(true);
          break;
        case 'jobs.progress':
          applyJobProgress(queryClient, event.payload);
          if (cachedKind(queryClient, event.payload.id) === 'train') documentsMayHaveChanged(false);
          break;
      }
    });
  }, [bridge, queryClient]);
  // The network is back: jobs waiting for an unreachable tenant try again now rather than at their next timed try.
  useEffect(() => {
    const wake = () => void bridge.call('jobs.wake', {});
    window.addEventListener('online', wake);
    return () => window.removeEventListener('online', wake);
  }, [bridge]);
}
