import type { EngineServices } from '../context';
import { JobFailed, JobNeedsAttention, type JobContext, type JobKindRunner } from '../jobs';
import { ApiError, classifyFailure } from '../platform';
import type { ApiMessage, TicketApi } from './api';
import type { TicketCache } from './cache';
import type { TicketLocal } from './local-store';

export interface ReplyParams {
  ticketId: number;
  message: string;
  /** The ticket as the admin saw it while writing; absent = no change check (CLI without a prior read). */
  seen: { updatedAt: string; messageCount: number } | null;
  force: boolean;
}

export const CHANGED_REASON =
  'The ticket changed on the server since you opened it: read the new messages, then send again (or send anyway)';

/** The phase of a reply paused by the change check: it waits for the admin to send it anyway or dismiss it. */
export const CHANGED_PHASE = 'changed';

export interface ReplyDeps {
  ctx: Pick<EngineServices, 'emit'>;
  cache: TicketCache;
  local: TicketLocal;
  api(profileId: string): Promise<TicketApi>;
}

/**
 * 'ticket-reply': one reply, written to the journal before anything is sent. Each run first checks the ticket:
 * deleted (404) or refused (403) ends the job with the draft kept; changed since the admin read it pauses the job
 * for a decision; otherwise the reply is posted. Unreachable → the runner waits and retries by itself, and the poller
 * nudges it when the tenant answers again. A POST that may have reached the server is looked for before resending.
 */
export function replyJobKind(deps: ReplyDeps): JobKindRunner {
  return {
    kind: 'ticket-reply',
    async run(job: JobContext) {
      const params = job.params as ReplyParams;
      const profileId = job.job.profile_id;
      if (!profileId) throw new JobFailed('This reply has no tenant connection (it was removed)');
      const [item] = job.journal.itemsIn(job.job.id, ['pending', 'active']);
      if (!item) return;
      // force: the admin chose "send anyway" on this paused reply (tickets.sendQueued).
      const data = JSON.parse(item.data) as { posting?: boolean; force?: boolean };
      job.journal.updateItem(item.id, { state: 'active', phase: 'checking', attempt: true, error: null });
      job.progress('Checking the ticket');
      const api = await deps.api(profileId);
      const id = params.ticketId;

      let ticket;
      try {
        ticket = await api.ticket(id, job.signal);
      } catch (error) {
        if (error instanceof ApiError && (error.status === 404 || error.status === 403)) {
          const message =
            error.status === 404
              ? `Ticket #${id} was deleted on the server: the reply was not sent (your draft is kept)`
              : `The platform refused the reply (403 Forbidden): this key may not reply on ticket #${id}`;
          if (error.status === 404 && deps.cache.remove(profileId, id)) {
            deps.ctx.emit('tickets.changed', { profileId, ids: [id], reason: 'deleted' });
          }
          job.journal.updateItem(item.id, { state: 'failed', phase: 'refused', error: message });
          throw new JobFailed(message);
        }
        throw error;
      }
      deps.cache.upsertTickets(profileId, [ticket]);

      if (data.posting) {
        // The last attempt may have reached the server before the answer was lost: do not post twice.
        const thread = await api.thread(id, job.signal);
        deps.cache.replaceThread(profileId, id, thread);
        const already = thread.find(
          (m) =>
            m.message === params.message &&
            m.sender !== null &&
            m.sender !== ticket.user &&
            m.timestamp >= job.job.created_at,
        );
        if (already) return sent(already);
      }

      if (params.seen && !params.force && !data.force) {
        const probe = await api.messages({ ticket: id, page: 1, pageSize: 1, signal: job.signal });
        if (ticket.updated_at !== params.seen.updatedAt || probe.count > params.seen.messageCount) {
          const thread = await api.thread(id, job.signal);
          deps.cache.replaceThread(profileId, id, thread);
          deps.ctx.emit('tickets.changed', { profileId, ids: [id], reason: 'sync' });
          job.journal.updateItem(item.id, { state: 'pending', phase: CHANGED_PHASE, error: CHANGED_REASON });
          throw new JobNeedsAttention(CHANGED_REASON);
        }
      }

      job.journal.updateItem(item.id, { phase: 'sending', data: { posting: true } });
      job.progress('Sending');
      let message: ApiMessage;
      try {
        message = await api.reply(id, params.message);
      } catch (error) {
        // Refused (a 401 pauses the job for a key); "not now" and no answer make it wait and check before resending.
        if (error instanceof ApiError && classifyFailure(error) === 'final' && error.status !== 401) {
          const reason = `The platform refused the reply (${error.status}): ${error.message}`;
          job.journal.updateItem(item.id, {
            state: 'failed',
            phase: 'refused',
            error: reason,
            data: { posting: false },
          });
          throw new JobFailed(reason);
        }
        throw error;
      }
      return sent(message);

      function sent(message: ApiMessage) {
        deps.cache.upsertMessages(profileId!, [message]);
        if (message.sender !== null) deps.cache.updateSync(profileId!, { my_user_id: message.sender });
        deps.local.clearDraftIf(profileId!, id, params.message);
        // The admin's own reply is not news to them.
        deps.local.markRead(profileId!, [id], true);
        job.journal.updateItem(item!.id, {
          state: 'done',
          phase: 'sent',
          error: null,
          data: { messageId: message.id },
        });
        deps.ctx.emit('tickets.changed', { profileId: profileId!, ids: [id], reason: 'reply' });
      }
    },
  };
}
