import type {
  QueuedReply,
  TicketBulkResult,
  TicketConversation,
  TicketFilter,
  TicketReplyOutcome,
  TicketSlaTargets,
  TicketSort,
  TicketStatus,
  TicketView as TicketViewOut,
  ticketCalls,
} from '../../../shared/contract';
import type { EngineArea } from '../context';
import type { Db } from '../store';
import type { HandlersOf } from '../dispatch';
import { conflict, EngineError, notFound } from '../errors';
import { ApiError, RequestAbortedError } from '../platform';
import type { TicketApi } from './api';
import { TicketCache, type TicketView } from './cache';
import { fetchConversation } from './conversation';
import { fetchRemoteImage, imageSources } from './images';
import { TicketLocal } from './local-store';
import { richText } from './markup';
import { TicketPoller } from './poller';
import { toDetail, toMessage, toSummary } from './present';
import { TicketQueue } from './queue-store';
import { CHANGED_PHASE, replyJobKind, type ReplyParams } from './reply-job';
import { describeFailure, isOffline, TicketSync, type TicketServices } from './sync';

const THREAD_TAIL = 200;
const ACTIVE: TicketStatus[] = ['open', 'in_progress'];

interface ResolvedView {
  label: string;
  kind: TicketViewOut['kind'];
  filter: TicketFilter;
  sort: TicketSort | null;
  sla: TicketSlaTargets;
}

export interface TicketStores {
  cache: TicketCache;
  local: TicketLocal;
  queue: TicketQueue;
}

/** The tickets area's tables, opened by the engine on its database. */
export function ticketStores(db: Db): TicketStores {
  return { cache: new TicketCache(db), local: new TicketLocal(db), queue: new TicketQueue(db) };
}

export function ticketsArea(
  services: TicketServices,
  stores: TicketStores,
): EngineArea<HandlersOf<typeof ticketCalls>> {
  const { cache, local, queue } = stores;
  const sync = new TicketSync(services, cache);
  const api = (profileId: string) => sync.api(profileId);
  const poller = new TicketPoller({
    sync: (profileId) => sync.sync(profileId),
    reconnected: (profileId) => sendQueuedReplies(profileId),
    log: services.log,
    pollWhileHidden: () => services.settings.get().notifyNewTickets,
  });
  sync.pollMs = (profileId) => poller.intervalFor(profileId);
  const conversations = new Map<string, TicketConversation>();
  const { runner, journal } = services;
  runner.register(replyJobKind({ ctx: services, cache, local, api }));

  /** The tenant connection's username: "Mine" is what it claimed. */
  const me = (profileId: string) => services.profiles.usernameOf(profileId) ?? '';

  /** Before the first sync finishes nothing counts as unread; after it, only activity past the baseline. */
  const baseline = (profileId: string) => {
    const row = cache.syncRow(profileId);
    return row.first_synced_at && row.read_baseline ? row.read_baseline : '9999';
  };

  /** A view's targets as it set them (null: none of its own). */
  function ownSla(profileId: string, viewId: string): TicketSlaTargets {
    const row = local.view(profileId, viewId);
    return { firstReplyHours: row?.firstReplyHours ?? null, resolutionHours: row?.resolutionHours ?? null };
  }

  /** The targets a view's clocks run on: its own, else the tenant's (none until the admin sets them). */
  function slaOf(profileId: string, viewId: string): TicketSlaTargets {
    const own = ownSla(profileId, viewId);
    const tenant = local.slaDefaults(profileId);
    return {
      firstReplyHours: own.firstReplyHours ?? tenant.firstReplyHours,
      resolutionHours: own.resolutionHours ?? tenant.resolutionHours,
    };
  }

  function resolveView(profileId: string, viewId: string): ResolvedView {
    const sla = slaOf(profileId, viewId);
    const builtin = (label: string, filter: TicketFilter): ResolvedView => ({
      label,
      kind: 'builtin',
      filter,
      sort: null,
      sla,
    });
    switch (viewId) {
      case 'open':
        return builtin('Open', { statuses: ['open'] });
      case 'in_progress':
        return builtin('In progress', { statuses: ['in_progress'] });
      case 'closed':
        return builtin('Closed', { statuses: ['closed'] });
      case 'all':
        return builtin('All', {});
      case 'mine':
        return builtin('Mine', { mine: true, statuses: ACTIVE });
    }
    if (viewId.startsWith('mentor:')) {
      const mentorId = viewId.slice('mentor:'.length);
      const name = cache.mentorNames(profileId).get(mentorId);
      return { label: name ?? mentorId, kind: 'mentor', filter: { mentorId, statuses: ACTIVE }, sort: null, sla };
    }
    const saved = local.view(profileId, viewId);
    if (!saved || !viewId.startsWith('saved:')) throw notFound(`No view '${viewId}'`);
    return { label: saved.name ?? viewId, kind: 'saved', filter: saved.filter, sort: saved.sort, sla };
  }

  function mergeFilters(a: TicketFilter, b: TicketFilter | undefined): TicketFilter {
    if (!b) return a;
    const statuses =
      a.statuses && b.statuses ? a.statuses.filter((s) => b.statuses!.includes(s)) : (b.statuses ?? a.statuses);
    const merged: TicketFilter = { ...a, ...b };
    if (statuses) merged.statuses = statuses;
    if (a.text && b.text) merged.text = `${a.text} ${b.text}`;
    return merged;
  }

  function summaries(profileId: string, rows: TicketView[], sla: TicketSlaTargets) {
    const now = Date.now();
    return rows.map((row) => toSummary(row, sla, now));
  }

  /** A paused reply waits for the admin's decision when its one item was held back by the change check. */
  const heldBack = (jobId: string) => journal.itemsIn(jobId, ['pending']).some((item) => item.phase === CHANGED_PHASE);

  function queuedReplies(profileId: string, ticketId: number): QueuedReply[] {
    const rows = journal.find({
      kind: 'ticket-reply',
      profileId,
      states: ['queued', 'running', 'paused', 'waiting', 'failed'],
      params: { ticketId },
      order: 'oldest',
    });
    return rows.map((r) => ({
      jobId: r.id,
      message: (JSON.parse(r.params) as ReplyParams).message,
      state: r.state as QueuedReply['state'],
      reason: r.error ?? r.reason,
      changed: r.state === 'paused' && heldBack(r.id),
      createdAt: r.created_at,
    }));
  }

  /** Waits for a reply job up to `waitMs`, then says where it stands (sent, queued, changed or failed). */
  async function replyOutcome(profileId: string, ticketId: number, jobId: string, waitMs: number) {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([runner.settled(jobId), new Promise((resolve) => (timer = setTimeout(resolve, waitMs)))]);
    clearTimeout(timer);
    const job = runner.present(jobId);
    const outcome = (state: TicketReplyOutcome['state'], message: string | null): TicketReplyOutcome => ({
      state,
      jobId,
      message,
      sent: null,
    });
    switch (job.state) {
      case 'completed': {
        const [item] = journal.itemsIn(jobId, ['done']);
        const messageId = item ? (JSON.parse(item.data) as { messageId?: number }).messageId : undefined;
        const row = cache.view(profileId, ticketId, baseline(profileId));
        const sent = messageId === undefined ? undefined : cache.message(profileId, messageId);
        return {
          ...outcome('sent', null),
          sent: sent ? toMessage(sent, row, cache.syncRow(profileId).my_user_id) : null,
        };
      }
      case 'paused':
        return outcome('changed', job.reason);
      case 'failed':
      case 'cancelled':
        return outcome('failed', job.error ?? job.reason);
      default:
        return outcome(
          'queued',
          job.state === 'waiting'
            ? 'The tenant is unreachable: the reply waits in the job journal and is sent when it answers again'
            : 'Still sending: the reply is in the job journal',
        );
    }
  }

  /** Replies that waited for the tenant go as soon as it answers again (after their change check). */
  function sendQueuedReplies(profileId: string): void {
    for (const job of journal.find({ kind: 'ticket-reply', profileId, states: ['waiting', 'queued'] })) {
      if (!runner.isActive(job.id)) runner.start(job.id);
    }
  }

  /** Turns a refusal about one ticket into words (and forgets a ticket the server no longer has). */
  function ticketError(profileId: string, id: number, error: unknown): EngineError {
    if (error instanceof ApiError && error.status === 404) {
      if (cache.remove(profileId, id)) services.emit('tickets.changed', { profileId, ids: [id], reason: 'deleted' });
      return new EngineError('not_found', `Ticket #${id} was deleted on the server (or never existed)`, {
        status: 404,
      });
    }
    if (error instanceof ApiError && error.status === 403) {
      return new EngineError('api', `The platform refused this for ticket #${id} (403 Forbidden)`, { status: 403 });
    }
    if (error instanceof ApiError) {
      return new EngineError('api', `The platform refused this for ticket #${id}: ${error.message}`, {
        status: error.status,
      });
    }
    if (isOffline(error)) return new EngineError('unreachable', describeFailure(error));
    if (error instanceof EngineError) return error;
    return new EngineError('internal', error instanceof Error ? error.message : String(error));
  }

  async function refreshTicket(profileId: string, id: number, client: TicketApi): Promise<void> {
    const [ticket, thread] = await Promise.all([client.ticket(id), client.thread(id)]);
    const { changed, added } = cache.upsertTickets(profileId, [ticket]);
    const threadChanged = cache.replaceThread(profileId, id, thread);
    if (changed.length || added.length || threadChanged) {
      services.emit('tickets.changed', { profileId, ids: [id], reason: 'sync' });
    }
  }

  function viewOut(profileId: string, id: string, view: ResolvedView, counts: { count: number; unread: number }) {
    return {
      id,
      label: view.label,
      kind: view.kind,
      count: counts.count,
      unread: counts.unread,
      filter: view.filter,
      sort: view.sort,
      sla: ownSla(profileId, id),
    };
  }

  const handlers: HandlersOf<typeof ticketCalls> = {
    'tickets.sync': async (input) => {
      const profileId = services.tenant(input?.profileId);
      const run = sync.sync(profileId, { full: !!input?.full });
      if (input?.wait) await run;
      return sync.status(profileId);
    },

    'tickets.status': (input) => sync.status(services.tenant(input?.profileId)),

    'tickets.views': (input) => {
      const profileId = services.tenant(input?.profileId);
      const base = baseline(profileId);
      const name = me(profileId);
      const counts = queue.viewCounts(profileId, base, name);
      const status = (s: TicketStatus) => ({
        count: counts.byStatus.get(s) ?? 0,
        unread: counts.unreadByStatus.get(s) ?? 0,
      });
      const sum = (xs: { count: number; unread: number }[]) => ({
        count: xs.reduce((n, x) => n + x.count, 0),
        unread: xs.reduce((n, x) => n + x.unread, 0),
      });
      const views: TicketViewOut[] = [
        viewOut(profileId, 'open', resolveView(profileId, 'open'), status('open')),
        viewOut(profileId, 'in_progress', resolveView(profileId, 'in_progress'), status('in_progress')),
        viewOut(profileId, 'closed', resolveView(profileId, 'closed'), status('closed')),
        viewOut(profileId, 'all', resolveView(profileId, 'all'), sum(ACTIVE.concat('closed').map(status))),
        viewOut(profileId, 'mine', resolveView(profileId, 'mine'), counts.mine),
      ];
      const names = cache.mentorNames(profileId);
      for (const [mentorId, , count] of counts.byMentor) {
        const id = `mentor:${mentorId}`;
        views.push({
          ...viewOut(profileId, id, resolveView(profileId, id), { count, unread: 0 }),
          label: names.get(mentorId) ?? mentorId,
        });
      }
      for (const saved of local.views(profileId).filter((v) => v.id.startsWith('saved:'))) {
        const view = resolveView(profileId, saved.id);
        views.push(
          viewOut(profileId, saved.id, view, queue.count({ profileId, me: name, baseline: base, filter: view.filter })),
        );
      }
      return { views, newCount: status('open').unread, me: name };
    },

    'tickets.list': async (input) => {
      const profileId = services.tenant(input.profileId);
      if (input.refresh) await sync.sync(profileId);
      else if (!cache.syncRow(profileId).first_synced_at) void sync.sync(profileId);
      const view = resolveView(profileId, input.view);
      const filter = mergeFilters(view.filter, input.filter);
      const { total, rows } = queue.list({
        profileId,
        me: me(profileId),
        baseline: baseline(profileId),
        filter,
        sort: input.sort ?? view.sort ?? 'newest',
        search: input.search,
        offset: input.offset,
        limit: input.limit,
      });
      return { total, rows: summaries(profileId, rows, view.sla), sync: sync.status(profileId) };
    },

    'tickets.get': async (input) => {
      const profileId = services.tenant(input.profileId);
      let offline: string | null = null;
      if (input.refresh || !cache.view(profileId, input.id, baseline(profileId))) {
        try {
          await refreshTicket(profileId, input.id, await api(profileId));
        } catch (error) {
          const refused = ticketError(profileId, input.id, error);
          if (refused.code !== 'unreachable' || !cache.view(profileId, input.id, baseline(profileId))) throw refused;
          offline = refused.message;
        }
      }
      if (input.markRead) {
        // Opening clears the queue's unread marker: the queue hears of it, once (reading a read ticket again says
        // nothing, or every refetch would announce a change and be refetched).
        const wasUnread = !!cache.view(profileId, input.id, baseline(profileId))?.unread;
        local.markRead(profileId, [input.id], true);
        if (wasUnread) services.emit('tickets.changed', { profileId, ids: [input.id], reason: 'local' });
      }
      const row = cache.view(profileId, input.id, baseline(profileId));
      if (!row) throw notFound(`Ticket #${input.id} is not in the cache`);
      const total = cache.threadTotal(profileId, input.id);
      const myUserId = cache.syncRow(profileId).my_user_id;
      const messages = cache
        .thread(profileId, input.id, Math.max(0, total - THREAD_TAIL), THREAD_TAIL)
        .map((m) => toMessage(m, row, myUserId));
      return {
        ticket: toDetail(row, local.slaDefaults(profileId)),
        messages,
        messageTotal: total,
        queued: queuedReplies(profileId, input.id),
        offline,
      };
    },

    'tickets.image': async (input) => {
      const profileId = services.tenant(input.profileId);
      const row = cache.view(profileId, input.id, baseline(profileId));
      if (!row) throw notFound(`Ticket #${input.id} is not in the cache`);
      // Only what this ticket's description shows: the call is not a way to fetch any address.
      if (!imageSources(richText(row.description).doc).includes(input.src)) {
        throw notFound(`Ticket #${input.id} shows no image from that address`);
      }
      // The tenant's own origin is trusted whatever its address (the sandbox is on loopback); see image-address.ts.
      const tenant = new URL((await services.profiles.get(profileId)).baseUrl).origin;
      return fetchRemoteImage(input.src, { trustedOrigins: [tenant] });
    },

    'tickets.messages': (input) => {
      const profileId = services.tenant(input.profileId);
      const row = cache.view(profileId, input.id, baseline(profileId));
      if (!row) throw notFound(`Ticket #${input.id} is not in the cache`);
      const total = cache.threadTotal(profileId, input.id);
      const end = Math.min(total, input.before ?? total);
      const start = Math.max(0, end - input.limit);
      const myUserId = cache.syncRow(profileId).my_user_id;
      return {
        messages: cache.thread(profileId, input.id, start, end - start).map((m) => toMessage(m, row, myUserId)),
        total,
        start,
      };
    },

    'tickets.conversation': async (input) => {
      const profileId = services.tenant(input.profileId);
      const row = cache.view(profileId, input.id, baseline(profileId));
      if (!row) throw notFound(`Ticket #${input.id} is not in the cache`);
      const key = `${profileId}|${row.session ?? ''}`;
      const known = conversations.get(key);
      if (known) return known;
      let client: TicketApi;
      try {
        client = await api(profileId);
      } catch (error) {
        return {
          available: false,
          reason: describeFailure(error),
          session: row.session,
          startedAt: null,
          mentor: null,
          messages: [],
        };
      }
      const conversation = await fetchConversation(client, row.session);
      if (conversation.available) {
        if (conversations.size > 50) conversations.delete(conversations.keys().next().value!);
        conversations.set(key, conversation);
      }
      return conversation;
    },

    'tickets.reply': async (input) => {
      const profileId = services.tenant(input.profileId);
      // The words are kept first: whatever happens next, nothing typed is lost.
      local.saveDraft(profileId, input.id, input.message);
      if (input.force) {
        for (const queued of queuedReplies(profileId, input.id)) {
          if (queued.state === 'paused' && queued.message === input.message) await runner.cancel(queued.jobId);
        }
      }
      const params: ReplyParams = {
        ticketId: input.id,
        message: input.message,
        seen: input.seen ?? null,
        force: !!input.force,
      };
      const jobId = journal.create({
        kind: 'ticket-reply',
        profileId,
        title: `Reply on ticket #${input.id}`,
        params,
        items: [{ key: 'reply', label: `Reply on ticket #${input.id}` }],
      });
      runner.start(jobId);
      return replyOutcome(profileId, input.id, jobId, input.waitMs);
    },

    'tickets.sendQueued': async (input) => {
      const profileId = services.tenant(input.profileId);
      const job = journal.job(input.jobId);
      if (!job || job.kind !== 'ticket-reply' || job.profile_id !== profileId) {
        throw notFound(`No queued reply '${input.jobId}'`);
      }
      const ticketId = (JSON.parse(job.params) as ReplyParams).ticketId;
      const [item] = journal.itemsIn(job.id, ['pending']);
      if (job.state !== 'paused' || !item || item.phase !== CHANGED_PHASE) {
        throw conflict(
          'This reply is not waiting for a decision: only a reply paused because the ticket changed can be sent anyway',
        );
      }
      // The admin has decided: this job skips the change check from now on, whatever happens next (offline again…).
      journal.updateItem(item.id, { data: { force: true } });
      runner.resume(job.id);
      return replyOutcome(profileId, ticketId, job.id, input.waitMs);
    },

    'tickets.setStatus': async (input) => {
      const profileId = services.tenant(input.profileId);
      const client = await api(profileId);
      const results: TicketBulkResult['results'] = [];
      const queue = [...new Set(input.ids)];
      const changed: number[] = [];
      const worker = async () => {
        for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
          try {
            const ticket =
              input.status === 'closed' ? await client.close(id) : await client.patch(id, { status: input.status });
            cache.upsertTickets(profileId, [ticket]);
            local.markRead(profileId, [id], true);
            changed.push(id);
            const row = cache.view(profileId, id, baseline(profileId))!;
            results.push({ id, ok: true, error: null, ticket: toSummary(row, local.slaDefaults(profileId)) });
          } catch (error) {
            results.push({ id, ok: false, error: ticketError(profileId, id, error).message, ticket: null });
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(4, queue.length) }, worker));
      if (changed.length) services.emit('tickets.changed', { profileId, ids: changed, reason: 'update' });
      const order = new Map(input.ids.map((id, i) => [id, i]));
      results.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
      return { results };
    },

    'tickets.update': async (input) => {
      const profileId = services.tenant(input.profileId);
      try {
        const ticket = await (await api(profileId)).patch(input.id, { subject: input.subject });
        cache.upsertTickets(profileId, [ticket]);
        local.markRead(profileId, [input.id], true);
      } catch (error) {
        throw ticketError(profileId, input.id, error);
      }
      services.emit('tickets.changed', { profileId, ids: [input.id], reason: 'update' });
      return toSummary(cache.view(profileId, input.id, baseline(profileId))!, local.slaDefaults(profileId));
    },

    'tickets.delete': async (input) => {
      const profileId = services.tenant(input.profileId);
      try {
        await (await api(profileId)).remove(input.id);
      } catch (error) {
        // Already gone is what was asked for.
        if (!(error instanceof ApiError && error.status === 404)) throw ticketError(profileId, input.id, error);
      }
      cache.remove(profileId, input.id);
      services.emit('tickets.changed', { profileId, ids: [input.id], reason: 'deleted' });
      return { ok: true as const };
    },

    'tickets.setLocal': (input) => {
      const profileId = services.tenant(input.profileId);
      const assignee = input.assignee === 'me' ? me(profileId) : input.assignee;
      const updated = local.setFields(profileId, input.ids, {
        ...(assignee !== undefined ? { assignee } : {}),
        ...(input.priority !== undefined ? { priority: input.priority } : {}),
        ...(input.tags !== undefined ? { tags: input.tags } : {}),
      });
      services.emit('tickets.changed', { profileId, ids: input.ids, reason: 'local' });
      return { updated };
    },

    'tickets.markRead': (input) => {
      const profileId = services.tenant(input.profileId);
      const updated = local.markRead(profileId, input.ids, input.read);
      services.emit('tickets.changed', { profileId, ids: input.ids, reason: 'local' });
      return { updated };
    },

    'tickets.saveDraft': (input) => {
      local.saveDraft(services.tenant(input.profileId), input.id, input.text);
      return { ok: true as const };
    },

    'tickets.saveView': (input) => {
      const profileId = services.tenant(input.profileId);
      if (input.id && !input.id.startsWith('saved:')) resolveView(profileId, input.id);
      if (!input.id && !input.name)
        throw new EngineError('validation', 'Name the view', {
          issues: [{ path: 'name', message: 'Name the view' }],
        });
      const id = local.saveView(profileId, input);
      const view = resolveView(profileId, id);
      services.emit('tickets.changed', { profileId, ids: null, reason: 'local' });
      return viewOut(
        profileId,
        id,
        view,
        queue.count({ profileId, me: me(profileId), baseline: baseline(profileId), filter: view.filter }),
      );
    },

    'tickets.slaDefaults': (input) => local.slaDefaults(services.tenant(input?.profileId)),

    'tickets.setSlaDefaults': (input) => {
      const profileId = services.tenant(input.profileId);
      const saved = local.setSlaDefaults(profileId, {
        firstReplyHours: input.firstReplyHours,
        resolutionHours: input.resolutionHours,
      });
      services.emit('tickets.changed', { profileId, ids: null, reason: 'local' });
      return saved;
    },

    'tickets.deleteView': (input) => {
      const profileId = services.tenant(input.profileId);
      local.deleteView(profileId, input.id);
      services.emit('tickets.changed', { profileId, ids: null, reason: 'local' });
      return { ok: true as const };
    },

    'tickets.cannedReplies': () => ({ replies: local.cannedReplies() }),
    'tickets.saveCannedReply': (input) => local.saveCannedReply(input),
    'tickets.deleteCannedReply': ({ id }) => {
      local.deleteCannedReply(id);
      return { ok: true as const };
    },

    'tickets.watch': (input) => {
      const profileId = services.tenant(input.profileId);
      poller.watch(profileId, input.visible);
      return sync.status(profileId);
    },
  };

  return {
    handlers,
    answeredAgain(profileId) {
      // The ticket index that stopped for want of an answer catches up now, not at the poller's backed-off next try.
      if (sync.status(profileId).state !== 'offline') return;
      if (!poller.pollNow(profileId)) void sync.sync(profileId);
    },
    async close() {
      poller.close();
      await sync.close().catch((error: unknown) => {
        if (!(error instanceof RequestAbortedError)) throw error;
      });
    },
  };
}

export { TicketCache } from './cache';
export { TicketSync } from './sync';
export { TicketApi, type ApiTicket } from './api';
