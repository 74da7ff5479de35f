import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { CallOutput, TicketStatus, TicketSummary } from '../../../shared/contract';
import { useBridge } from '../../bridge/BridgeContext';
import { notifyError, notifySuccess } from '../../components/notify';
import { useCallKey } from '../../queries/useCall';
import { STATUS_LABEL } from './format';
import type { TicketWindow } from './useTicketWindow';

export interface TicketActions {
  setStatus(ids: number[], status: TicketStatus): Promise<void>;
  updateSubject(id: number, subject: string): Promise<void>;
  remove(id: number): Promise<void>;
}

type Detail = CallOutput<'tickets.get'>;

/** Changes the open ticket's cached detail at once; the returned function puts it back. */
function patchDetail(
  queryClient: QueryClient,
  callKey: ReturnType<typeof useCallKey>,
  id: number,
  change: Partial<TicketSummary>,
): () => void {
  const key = callKey('tickets.get', { id, markRead: true });
  const before = queryClient.getQueryData<Detail>(key);
  if (before) queryClient.setQueryData<Detail>(key, { ...before, ticket: { ...before.ticket, ...change } });
  return () => {
    if (before) queryClient.setQueryData(key, before);
    void queryClient.invalidateQueries({ queryKey: key });
  };
}

const VERB: Record<TicketStatus, string> = { open: 'reopen', in_progress: 'set in progress', closed: 'close' };

/**
 * Status changes, subject edits and deletes show at once in the list and the pane; when the platform refuses, the
 * change is undone where it was shown and a notification says why.
 */
export function useTicketActions(list: Pick<TicketWindow, 'patch' | 'refresh'>): TicketActions {
  const { patch, refresh } = list;
  const bridge = useBridge();
  const queryClient = useQueryClient();
  const callKey = useCallKey();
  return useMemo<TicketActions>(
    () => ({
      async setStatus(ids, status) {
        const now = new Date().toISOString();
        const change: Partial<TicketSummary> = { status, ...(status === 'closed' ? { resolvedAt: now } : {}) };
        const undo = new Map(ids.map((id) => [id, [patch(id, change), patchDetail(queryClient, callKey, id, change)]]));
        const rollback = (id: number) => undo.get(id)?.forEach((fn) => fn());
        try {
          const { results } = await bridge.call('tickets.setStatus', { ids, status });
          const failed = results.filter((r) => !r.ok);
          for (const r of failed) {
            rollback(r.id);
            notifyError(`Could not ${VERB[status]} ticket #${r.id}`, r.error ?? 'Refused');
          }
          if (ids.length > 1 && failed.length < ids.length) {
            notifySuccess(
              `${STATUS_LABEL[status]}: ${ids.length - failed.length} tickets`,
              failed.length ? `${failed.length} refused` : 'Done',
            );
          }
        } catch (error) {
          ids.forEach(rollback);
          notifyError(
            `Could not ${VERB[status]} ${ids.length === 1 ? `ticket #${ids[0]}` : `${ids.length} tickets`}`,
            error,
          );
        }
        refresh();
      },
      async updateSubject(id, subject) {
        const undo = [patch(id, { subject }), patchDetail(queryClient, callKey, id, { subject })];
        try {
          await bridge.call('tickets.update', { id, subject });
        } catch (error) {
          undo.forEach((fn) => fn());
          notifyError(`Could not change the subject of ticket #${id}`, error);
        }
        refresh();
      },
      async remove(id) {
        try {
          await bridge.call('tickets.delete', { id });
          notifySuccess('Ticket deleted', `#${id}`);
        } catch (error) {
          notifyError(`Could not delete ticket #${id}`, error);
        }
        refresh();
      },
    }),
    [bridge, queryClient, callKey, patch, refresh],
  );
}
