/**
 * Analytics: the Overview's charts, the conversations browser and learning pages (cached per tenant, call and
 * parameters), CSV exports as durable jobs, and scheduled exports run by a timer while the app runs.
 */
import { DATASETS, type analyticsCalls, type DashboardInput } from '../../../shared/contract';
import type { EngineArea } from '../context';
import type { Db } from '../store';
import type { HandlersOf } from '../dispatch';
import { browseConversations, readConversation } from './browse';
import {
  computeActivity,
  computeCosts,
  computeKpis,
  computeSentiment,
  computeTopics,
  computeTopMentors,
} from './dashboard';
import { exportJobKind } from './export-job';
import { Exports } from './exports';
import { learnerList, learnerPage, learningOverview } from './learning';
import { Schedules } from './schedules';
import { AnswerCache } from '../store';
import { ScheduleStore } from './schedule-store';
import { ANSWER_SHAPE, AnalyticsServices, type AnalyticsDeps, type Resolved } from './services';

export interface AnalyticsStores {
  answers: AnswerCache;
  schedules: ScheduleStore;
}

/** Analytics' tables, opened by the engine on its database. */
export function analyticsStores(db: Db, deps: Pick<AnalyticsDeps, 'emit' | 'log'>): AnalyticsStores {
  return { answers: new AnswerCache(db, deps), schedules: new ScheduleStore(db) };
}

export function analyticsArea(
  deps: AnalyticsDeps,
  stores: AnalyticsStores,
): EngineArea<HandlersOf<typeof analyticsCalls>> {
  const services = new AnalyticsServices(deps, stores.answers);
  const exports = new Exports(deps, services);
  const schedules = new Schedules(deps, stores.schedules, exports);
  deps.runner.register({
    ...exportJobKind({ sink: exports, now: Date.now }),
    finished: (job) => {
      void exports.ended(job.id);
      const info = exports.get(job.id);
      deps.emit('analytics.exportProgress', info);
      if (info.scheduleId) deps.emit('analytics.schedulesChanged', { id: info.scheduleId });
    },
    report: {
      header: ['item', 'state', 'rows', 'file_length', 'error', 'attempts'],
      row: (item) => {
        const data = JSON.parse(item.data) as { rows?: number; length?: number };
        return [item.label, item.state, data.rows ?? '', data.length ?? item.bytes, item.error ?? '', item.attempts];
      },
    },
  });
  void exports.sweep().catch(() => {});
  if (deps.config.scheduler) schedules.startTimer(deps.config.schedulerTickMs);

  async function answer<T extends object>(call: string, input: DashboardInput, compute: (r: Resolved) => Promise<T>) {
    const { value, freshness } = await services.dashboard(call, input, compute);
    return { ...value.value, range: value.range, freshness };
  }

  /** The cached answer the panel's own call would serve, or null when it has none yet. */
  function cachedPanel<T extends object>(call: string, input: DashboardInput, compute: (r: Resolved) => Promise<T>) {
    const cached = services.dashboardCached(call, input, compute);
    return cached ? { ...cached.value.value, range: cached.value.range, freshness: cached.freshness } : null;
  }

  return {
    handlers: {
      'analytics.filters': async (input) => {
        const { value, freshness } = await services.filters(
          deps.tenant(input?.profileId),
          input?.parts,
          input?.refresh,
        );
        return { ...value, freshness };
      },
      'analytics.kpis': (input) => answer('kpis', input, computeKpis),
      'analytics.activity': (input) => answer('activity', input, computeActivity),
      'analytics.topMentors': (input) => answer('topMentors', input, computeTopMentors),
      'analytics.topics': (input) => answer('topics', input, computeTopics),
      'analytics.sentiment': (input) => answer('sentiment', input, computeSentiment),
      'analytics.costs': (input) => answer('costs', input, computeCosts),
      // One round trip for everything the Overview shows, from the cache: the panels not there yet are asked for
      // with their own calls (which wait on the tenant), so a warm Overview draws once, at once.
      'analytics.overview': (input) => ({
        kpis: cachedPanel('kpis', input, computeKpis),
        activity: cachedPanel('activity', input, computeActivity),
        topMentors: cachedPanel('topMentors', input, computeTopMentors),
        topics: cachedPanel('topics', input, computeTopics),
        sentiment: cachedPanel('sentiment', input, computeSentiment),
        costs: cachedPanel('costs', input, computeCosts),
      }),
      'analytics.conversations': async (input) => {
        const profileId = deps.tenant(input.profileId);
        const names = await services.mentorNames(profileId);
        const { page, pageSize, sentiment, topics, learner } = input;
        const result = await answer('conversations', input, (r) =>
          browseConversations(r, { page, pageSize, sentiment, topics, learner }, names),
        );
        return { ...result, page, pageSize };
      },
      'analytics.conversation': async (input) => {
        const profileId = deps.tenant(input.profileId);
        const names = await services.mentorNames(profileId);
        const { value, freshness } = await services.cache.answer(
          { profileId, call: 'conversation', params: { id: input.id }, freshForMs: 60 * 60_000 },
          async () => readConversation(await services.api(profileId), input.id, names),
        );
        return { ...value, freshness };
      },
      'analytics.learning': (input) => answer('learning', input, learningOverview),
      'analytics.learners': async (input) => {
        const profileId = deps.tenant(input.profileId);
        const { refresh, profileId: _p, ...params } = input;
        const { value, freshness } = await services.cache.answer(
          { profileId, call: 'learners', params: { ...params, timeZone: services.timeZone(input.timeZone) }, refresh },
          async () => {
            const r = await services.resolve({
              profileId,
              range: input.range,
              ...(input.timeZone ? { timeZone: input.timeZone } : {}),
            });
            return learnerList(r.api, { ...input, from: r.range.from, to: r.range.to });
          },
        );
        return { ...value, page: input.page, pageSize: input.pageSize, freshness };
      },
      'analytics.learner': async (input) => {
        const profileId = deps.tenant(input.profileId);
        const timeZone = services.timeZone(input.timeZone);
        const { value, freshness } = await services.cache.answer(
          {
            profileId,
            call: 'learner',
            params: { username: input.username, range: input.range, timeZone, shape: ANSWER_SHAPE },
            refresh: input.refresh,
          },
          async () => {
            const r = await services.resolve({ profileId, range: input.range, timeZone });
            return { ...(await learnerPage(r, input.username)), range: r.range };
          },
        );
        return { ...value, freshness };
      },
      'analytics.datasets': () => ({
        datasets: DATASETS.map(({ timeColumns: _t, ...dataset }) => dataset),
      }),
      'analytics.exportStart': (input) => exports.start(input),
      'analytics.exportFolder': () => ({ folder: exports.defaultFolder() }),
      'analytics.exports': (input) => ({
        exports: exports.list(input?.limit ?? 50, input?.scheduleId, input?.profileId),
      }),
      'analytics.export': ({ id }) => exports.get(id),
      'analytics.reveal': ({ id }) => exports.reveal(id),
      'analytics.schedules': (input) => ({
        schedules: schedules.list(input?.profileId ?? undefined),
      }),
      'analytics.scheduleSave': (input) => schedules.save(input),
      'analytics.scheduleRemove': ({ id }) => {
        schedules.remove(id);
        return { ok: true as const };
      },
      'analytics.scheduleRun': ({ id }) => schedules.run(id),
    },
    async close() {
      await schedules.stop();
      await services.cache.settle();
    },
  };
}
export { AnalyticsApi, type ApiConversation } from './api';
