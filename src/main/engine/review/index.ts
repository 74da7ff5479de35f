import type { ReviewConversation, ReviewDetail, reviewCalls } from '../../../shared/contract';
import { mentorSettings } from '../../../shared/resources/mentor-settings';
import { toCsv } from '../csv';
import type { EngineArea, EngineServices } from '../context';
import type { HandlersOf } from '../dispatch';
import { invalid, notFound } from '../errors';
import { ApiError, isTransient, wasNotTaken } from '../platform';
import { SnapshotStore } from '../resources';
import type { Db } from '../store';
import { userScope } from '../tenants';
import { ReviewApi, type ApiLog, type LogKind } from './api';
import { messagesOf, ratedIndex, readRatedDown } from './feedback';
import { ReviewStore, type CachedItem } from './store';
import { sessionHandlers } from './sessions';
import { TraceRankings } from './trace-ranking';
import { toDetail, toSummary } from './traces';

const LOG_PAGE = 1000;
const EXPORT_COLUMNS = [
  'id',
  'source',
  'created_at',
  'learner',
  'email',
  'mentor_id',
  'mentor',
  'prompt',
  'reason',
  'reviewed_by',
  'reviewed_at',
  'session',
];

export interface ReviewStores {
  store: ReviewStore;
  snapshots: SnapshotStore;
  rankings: TraceRankings;
}

export function reviewStores(db: Db, services: Pick<EngineServices, 'emit' | 'log'>): ReviewStores {
  return { store: new ReviewStore(db), snapshots: new SnapshotStore(db), rankings: new TraceRankings(db, services) };
}

const SOURCE: Record<LogKind, CachedItem['source']> = { moderation: 'Moderation System', safety: 'Safety System' };

function parseId(id: string): { kind: LogKind; logId: number } {
  const [kind, raw] = id.split(':');
  if (kind === 'feedback') {
    // chat-history's DELETE would delete the learner's whole conversation, and mentor-feedback has no DELETE.
    throw invalid(
      'id',
      'Negative feedback is a rating on the tenant that no call deletes: mark it reviewed (e) instead',
    );
  }
  if ((kind !== 'moderation' && kind !== 'safety') || !raw || !/^\d{1,15}$/.test(raw)) {
    throw notFound(`No review item '${id}': ids look like moderation:12, safety:7 or feedback:SESSION`);
  }
  return { kind, logId: Number(raw) };
}

const toCached = (kind: LogKind, log: ApiLog): CachedItem => ({
  id: `${kind}:${log.id}`,
  source: SOURCE[kind],
  logId: log.id,
  session: null,
  messageIndex: null,
  learner: log.username,
  email: log.email,
  mentorId: log.mentor,
  prompt: log.prompt,
  reason: log.reason,
  createdAt: new Date(Date.parse(log.date_created) || 0).toISOString(),
});

/** A failed read in words: unreachable (the cache is shown) or refused (check the key). */
function describeFailure(error: unknown): string {
  if (isTransient(error)) {
    const why = wasNotTaken(error) ? 'The tenant asks to come back later' : 'The tenant is unreachable';
    return `${why} (${(error as Error).message})`;
  }
  if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
    return `The tenant refused (${error.status}): check the key in Settings → Tenants`;
  }
  return error instanceof Error ? error.message : String(error);
}

const GONE = 'This conversation no longer exists: the learner or an admin deleted it after it was flagged';

export function reviewArea(services: EngineServices, stores: ReviewStores): EngineArea<HandlersOf<typeof reviewCalls>> {
  const { store, snapshots } = stores;
  const api = async (profileId: string) => {
    const [client, scope] = await Promise.all([services.platform(profileId), userScope(services.profiles, profileId)]);
    return new ReviewApi(client, scope);
  };
  const changed = (profileId: string) => services.emit('review.changed', { profileId });

  async function readAll(reviewApi: ReviewApi, kind: LogKind): Promise<CachedItem[]> {
    const out: CachedItem[] = [];
    for (let page = 1; ; page++) {
      const answer = await reviewApi.logs(kind, page, LOG_PAGE);
      out.push(...answer.results.map((log) => toCached(kind, log)));
      if (!answer.next || !answer.results.length) return out;
    }
  }

  async function sync(profileId: string) {
    try {
      const reviewApi = await api(profileId);
      const [moderation, safety, mentors] = await Promise.all([
        readAll(reviewApi, 'moderation'),
        readAll(reviewApi, 'safety'),
        reviewApi.mentors(),
      ]);
      // Ratings come from chat history, which a key may not be allowed to read: the logs are refreshed all the same.
      let feedback: CachedItem[] | null = null;
      let feedbackError: string | null = null;
      try {
        feedback = await readRatedDown(reviewApi, new Map(mentors.map((m) => [m.uniqueId.toLowerCase(), m.id])));
      } catch (error) {
        feedbackError = `Negative feedback not refreshed: ${describeFailure(error)}`;
      }
      services.bulkWrites();
      const sources: CachedItem['source'][] = ['Moderation System', 'Safety System'];
      if (feedback) sources.push('Negative feedback');
      store.replace(profileId, [...moderation, ...safety, ...(feedback ?? [])], mentors, sources);
      if (feedbackError) store.setSync(profileId, null, feedbackError);
    } catch (error) {
      store.setSync(profileId, null, describeFailure(error));
    }
    changed(profileId);
    return { ...store.syncState(profileId), total: store.count(profileId) };
  }

  /** The learner's conversation holding the flagged prompt: same text, the closest in time to the log. */
  async function conversationOf(
    profileId: string,
    learner: string,
    prompt: string,
    at: string,
  ): Promise<ReviewConversation> {
    const none = (reason: string): ReviewConversation => ({
      available: false,
      reason,
      session: null,
      mentorUniqueId: null,
      messages: [],
      flaggedIndex: null,
    });
    const day = at.slice(0, 10);
    const dayBefore = new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    let candidates;
    try {
      candidates = await (await api(profileId)).conversations(learner, dayBefore, day);
    } catch (error) {
      if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
        return none(`This key may not read chat history (${error.status}): ask a platform admin`);
      }
      return none(describeFailure(error));
    }
    const target = Date.parse(at);
    let best: { conversation: ReviewConversation; distance: number } | null = null;
    for (const c of candidates) {
      const messages = messagesOf(c.messages);
      messages.forEach((m, index) => {
        if (m.role !== 'learner' || m.content !== prompt) return;
        const distance = Math.abs((Date.parse(m.timestamp) || 0) - target);
        if (!best || distance < best.distance) {
          best = {
            distance,
            conversation: {
              available: true,
              reason: null,
              session: c.id,
              mentorUniqueId: c.mentor,
              messages,
              flaggedIndex: index,
            },
          };
        }
      });
    }
    return best ? (best as { conversation: ReviewConversation }).conversation : none(GONE);
  }

  /** A rated-down conversation, at its rated message (the mentor's last answer if the kept index no longer is one). */
  async function ratedConversation(profileId: string, session: string, index: number | null) {
    const none = (reason: string): ReviewConversation => ({
      available: false,
      reason,
      session,
      mentorUniqueId: null,
      messages: [],
      flaggedIndex: null,
    });
    let answer;
    try {
      answer = await (await api(profileId)).conversation(session);
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return none(GONE);
      if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
        return none(`This key may not read chat history (${error.status}): ask a platform admin`);
      }
      return none(describeFailure(error));
    }
    const messages = messagesOf(answer.messages);
    const flaggedIndex = index !== null && messages[index]?.role === 'mentor' ? index : ratedIndex(messages);
    return {
      available: true,
      reason: answer.rating === -1 ? null : 'The learner has since changed their rating of this conversation',
      session,
      mentorUniqueId: answer.mentor,
      messages,
      flaggedIndex,
    } satisfies ReviewConversation;
  }

  /** The mentor's safety settings at the time, from the mentor editor's snapshots (the latest kept by then). */
  function settingsAt(profileId: string, uniqueId: string | null, at: string): ReviewDetail['settings'] {
    if (!uniqueId) return null;
    const kept = snapshots.list(profileId, mentorSettings.kind, uniqueId);
    if (!kept.length) return null;
    const sorted = [...kept].sort((a, b) => a.takenAt.localeCompare(b.takenAt));
    const before = sorted.filter((s) => s.takenAt <= at).pop();
    const chosen = before ?? sorted[0]!;
    const note = before
      ? `As saved in the mentor editor on ${before.takenAt.slice(0, 16).replace('T', ' ')} UTC, the last change before this message`
      : `No snapshot predates this message: the earliest kept (${chosen.takenAt.slice(0, 16).replace('T', ' ')} UTC) is shown`;
    const field = (name: string) => (typeof chosen.record[name] === 'string' ? (chosen.record[name] as string) : null);
    return {
      takenAt: chosen.takenAt,
      note,
      safetyPrompt: field('safety_system_prompt'),
      safetyResponse: field('safety_response'),
      moderationPrompt: field('moderation_system_prompt'),
      moderationResponse: field('moderation_response'),
    };
  }

  return {
    handlers: {
      ...sessionHandlers(services),
      'review.sync': async (input) => sync(services.tenant(input?.profileId)),
      'review.list': ({ profileId, filter, offset, limit }) => {
        const id = services.tenant(profileId);
        return { ...store.list(id, filter, offset, limit), sync: store.syncState(id) };
      },
      'review.get': async ({ profileId, id }) => {
        const tenant = services.tenant(profileId);
        const item = store.item(tenant, id);
        if (!item) throw notFound(`No review item '${id}' in this tenant's queue (refresh the queue)`);
        const conversation = item.session
          ? await ratedConversation(tenant, item.session, store.messageIndex(tenant, item.id))
          : await conversationOf(tenant, item.learner, item.prompt, item.createdAt);
        const uniqueId = conversation.mentorUniqueId ?? store.mentorUniqueId(tenant, item.mentorId);
        return { item, conversation, settings: settingsAt(tenant, uniqueId, item.createdAt) };
      },
      'review.mark': ({ profileId, ids, reviewed }) => {
        const tenant = services.tenant(profileId);
        const by = services.profiles.usernameOf(tenant) ?? 'unknown';
        const result = store.mark(tenant, ids, by, reviewed);
        if (result.marked) changed(tenant);
        return result;
      },
      'review.delete': async ({ profileId, id }) => {
        const tenant = services.tenant(profileId);
        const { kind, logId } = parseId(id);
        try {
          await (await api(tenant)).deleteLog(kind, logId);
        } catch (error) {
          // Already gone on the tenant: the queue forgets it all the same.
          if (!(error instanceof ApiError && error.status === 404)) throw error;
        }
        store.remove(tenant, id);
        changed(tenant);
        return { ok: true as const };
      },
      'review.views': (input) => store.views(services.tenant(input?.profileId)),
      'review.saveView': ({ profileId, ...view }) => {
        const tenant = services.tenant(profileId);
        const saved = store.saveView(tenant, view);
        changed(tenant);
        return saved;
      },
      'review.deleteView': ({ profileId, id }) => {
        const tenant = services.tenant(profileId);
        if (!store.deleteView(tenant, id)) throw notFound(`No saved view ${id}`);
        changed(tenant);
        return { ok: true as const };
      },
      'review.export': ({ profileId, filter }) => {
        const tenant = services.tenant(profileId);
        const { items } = store.list(tenant, filter, 0, Number.MAX_SAFE_INTEGER);
        const rows = items.map((i) => [
          i.id,
          i.source,
          i.createdAt,
          i.learner,
          i.email,
          i.mentorId,
          i.mentorName ?? '',
          i.prompt,
          i.reason,
          i.reviewedBy ?? '',
          i.reviewedAt ?? '',
          i.session ?? '',
        ]);
        const stamp = new Date().toISOString().slice(0, 10);
        return {
          fileName: `review-queue-${stamp}.csv`,
          csv: toCsv([EXPORT_COLUMNS, ...rows]),
          rows: rows.length,
        };
      },
      'review.traces': async ({ profileId, rank, limit, refresh, ...range }) => {
        const tenant = services.tenant(profileId);
        return stores.rankings.answer(tenant, () => api(tenant), { ...range, rank, limit, refresh });
      },
      'review.trace': async ({ profileId, id }) => {
        const reviewApi = await api(services.tenant(profileId));
        let trace;
        try {
          trace = await reviewApi.trace(id);
        } catch (error) {
          if (error instanceof ApiError && error.status === 404) throw notFound(`No trace '${id}' on this tenant`);
          throw error;
        }
        return toDetail(trace, await reviewApi.observationsOf(id));
      },
      'review.traceOf': async ({ profileId, session }) => {
        const reviewApi = await api(services.tenant(profileId));
        const page = await reviewApi.traces({ search: session, ordering: 'timestamp', limit: 100, offset: 0 });
        return { traces: page.results.filter((t) => t.session_id === session).map(toSummary) };
      },
    },
  };
}
