import { notifications } from '@mantine/notifications';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { createElement, useMemo, useRef } from 'react';
import type { CallOutput, TicketStatus, TicketSummary } from '../../../shared/contract';
import { useBridge } from '../../bridge/BridgeContext';
import { notifyError, notifySuccess } from '../../components/notify';
import { useCallKey } from '../../queries/useCall';
import { STATUS_LABEL } from './format';
import { UndoNote } from './UndoNote';
import type { TicketWindow } from './useTicketWindow';

export interface TicketActions {
  setStatus(ids: number[], status: TicketStatus): Promise<void>;
  /** Puts back the statuses the last status change replaced (z, or Undo on its notification); false if none. */
  undo(): boolean;
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
const DONE: Record<TicketStatus, string> = { open: 'Reopened', in_progress: 'In progress', closed: 'Closed' };
const UNDO_NOTE = 'ticket-status-undo';

interface Undoable {
  /** Each ticket's status before the change. */
  before: Map<number, TicketStatus>;
}

/**
 * Status changes, subject edits and deletes show at once in the list and the pane; when the platform refuses, the
 * change is undone where it was shown and a notification says why. A status change that went through says so with
 * an Undo (z from the queue) that puts the previous statuses back.
 */
export function useTicketActions(
  list: Pick<TicketWindow, 'patch' | 'refresh'> & { statusOf(id: number): TicketStatus | undefined },
): TicketActions {
  const { patch, refresh, statusOf } = list;
  const bridge = useBridge();
  const queryClient = useQueryClient();
  const last = useRef<Undoable | null>(null);
  const callKey = useCallKey();
  return useMemo<TicketActions>(() => {
    const previousStatus = (id: number) =>
      statusOf(id) ?? queryClient.getQueryData<Detail>(callKey('tickets.get', { id, markRead: true }))?.ticket.status;

    /** Applies a status to each ticket (one call per status); returns the tickets it changed. */
    async function apply(changes: Map<number, TicketStatus>, verb: (status: TicketStatus) => string) {
      const byStatus = new Map<TicketStatus, number[]>();
      for (const [id, status] of changes) byStatus.set(status, [...(byStatus.get(status) ?? []), id]);
      const changed: number[] = [];
      for (const [status, ids] of byStatus) {
        const now = new Date().toISOString();
        const change: Partial<TicketSummary> = { status, ...(status === 'closed' ? { resolvedAt: now } : {}) };
        const undo = new Map(ids.map((id) => [id, [patch(id, change), patchDetail(queryClient, callKey, id, change)]]));
        const rollback = (id: number) => undo.get(id)?.forEach((fn) => fn());
        try {
          const { results } = await bridge.call('tickets.setStatus', { ids, status });
          for (const r of results) {
            if (r.ok) changed.push(r.id);
            else {
              rollback(r.id);
              notifyError(`Could not ${verb(status)} ticket #${r.id}`, r.error ?? 'Refused');
            }
          }
        } catch (error) {
          ids.forEach(rollback);
          notifyError(
            `Could not ${verb(status)} ${ids.length === 1 ? `ticket #${ids[0]}` : `${ids.length} tickets`}`,
            error,
          );
        }
      }
      refresh();
      return changed;
    }

    const actions: TicketActions = {
      async setStatus(ids, status) {
        const before = new Map<number, TicketStatus>();
        for (const id of ids) {
          const was = previousStatus(id);
          if (was && was !== status) before.set(id, was);
        }
        const changed = await apply(new Map(ids.map((id) => [id, status])), (s) => VERB[s]);
        const undoable = new Map([...before].filter(([id]) => changed.includes(id)));
        if (!undoable.size) return;
        last.current = { before: undoable };
        const what = changed.length === 1 ? `ticket #${changed[0]}` : `${changed.length} tickets`;
        notifications.hide(UNDO_NOTE);
        notifications.show({
          id: UNDO_NOTE,
          title: `${DONE[status]}: ${what}`,
          message: createElement(UndoNote, { onUndo: () => actions.undo() }),
          color: 'teal',
          autoClose: 8000,
        });
      },
      undo() {
        const undoable = last.current;
        if (!undoable) return false;
        last.current = null;
        notifications.hide(UNDO_NOTE);
        void apply(undoable.before, (s) => `put back (${STATUS_LABEL[s]})`).then((back) => {
          if (back.length) {
            notifySuccess(
              'Undone',
              `${back.length === 1 ? `Ticket #${back[0]} is` : `${back.length} tickets are`} as before.`,
            );
          }
        });
        return true;
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
    };
    return actions;
  }, [bridge, queryClient, callKey, patch, refresh, statusOf]);
}
