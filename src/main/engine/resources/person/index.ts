/** A learner's data requests (issue 18): export everything about a person, erase a person, the erasure reports. */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { ERASE_STEPS, type personCalls } from '../../../../shared/contract';
import type { EngineServices } from '../../context';
import type { HandlersOf } from '../../dispatch';
import { defaultExportDir } from '../../jobs';
import { UNFINISHED_STATES } from '../../jobs';
import { EngineError, invalid } from '../../errors';
import { userScope } from '../../tenants';
import type { ResourceCache } from '../cache';
import type { ResourceServices } from '../handlers';
import { personEraseKind } from './erase-job';
import { type ErasureStore } from './erasure-store';
import { EXPORT_SOURCES, personExportKind, ZIP_ITEM } from './export-job';
import { adminRefusal, findPerson } from './people';
import { PersonPlatform } from './platform';

export { ErasureStore } from './erasure-store';
export { buildZip } from './export-job';

export function personHandlers(
  services: ResourceServices & Pick<EngineServices, 'config'>,
  cache: ResourceCache,
  reports: ErasureStore,
): HandlersOf<typeof personCalls> {
  services.runner.register(personExportKind(services));
  services.runner.register(
    personEraseKind(services, reports, (profileId, userId) => {
      cache.remove(profileId, 'users', userId);
      services.emit('resources.changed', { profileId, kind: 'users' });
    }),
  );

  /** The unfinished job of this kind for this person (and this file), which a second ask resumes. */
  function unfinished(profileId: string, kind: 'person-export' | 'person-erase', ref: string, path?: string) {
    return services.journal.find({ kind, profileId, states: UNFINISHED_STATES }).find((job) => {
      const params = JSON.parse(job.params) as { person?: { username?: string; userId?: string }; path?: string };
      const named = params.person?.username === ref || params.person?.userId === ref;
      return named && (path === undefined || params.path === path);
    });
  }

  async function preview(profileId: string, ref: string) {
    const person = await findPerson(services, cache, profileId, ref);
    const scope = await userScope(services.profiles, profileId);
    const platform = new PersonPlatform(await services.platform(profileId), scope, profileId, person, services);
    const warnings: string[] = [];
    const counted = async (what: string, read: () => Promise<number>) => {
      try {
        return await read();
      } catch (error) {
        warnings.push(`${what} not counted: ${error instanceof Error ? error.message : String(error)}`);
        return 0;
      }
    };
    const [refusal, chats, memory, profile, edx] = await Promise.all([
      adminRefusal(services, profileId, person),
      counted('Chat history', () => platform.conversationCount()),
      counted('Memory', async () => (await platform.memories()).reduce((sum, m) => sum + m.entries.length, 0)),
      counted('Profile memory', async () => (await platform.profileMemory()).length),
      counted('edX memory', async () => (await platform.edxMemory()).length),
    ]);
    const counts = { 'chat-history': chats, memory, 'profile-memory': profile, 'edx-memory': edx, user: 1 };
    return {
      ...person,
      refusal,
      counts: ERASE_STEPS.map((step) => ({ step, count: counts[step] })),
      warnings,
      scope,
    };
  }

  /** `<tenant>-<person>-data-<day>.zip`, in words a file system takes. */
  async function exportName(profileId: string, user: string): Promise<string> {
    const safe = (text: string) =>
      text
        .normalize('NFKD')
        .replace(/[^\w.-]+/g, '-')
        .replace(/^-+|-+$/g, '')
        .toLowerCase() || 'x';
    const person = await findPerson(services, cache, profileId, user);
    const day = new Date().toISOString().slice(0, 10);
    return `${safe(services.profiles.nameOf(profileId))}-${safe(person.username)}-data-${day}.zip`;
  }

  return {
    'person.preview': async ({ profileId: given, user }) => {
      const { scope: _scope, ...answer } = await preview(services.tenant(given), user);
      return answer;
    },

    'person.export': async ({ profileId: given, user, path: chosen }) => {
      const profileId = services.tenant(given);
      const folder = defaultExportDir(services.config.dataDir);
      // The export folder is the app's own: made when missing. A folder the admin named must exist.
      if (!chosen) mkdirSync(folder, { recursive: true });
      const path = resolve(chosen ?? join(folder, await exportName(profileId, user)));
      if (!path.toLowerCase().endsWith('.zip')) throw invalid('path', 'Name the export FILE.zip');
      if (!existsSync(dirname(path)) || !statSync(dirname(path)).isDirectory())
        throw invalid('path', `The folder ${dirname(path)} does not exist`);
      const pending = unfinished(profileId, 'person-export', user, path);
      if (pending) {
        services.runner.start(pending.id);
        return { jobId: pending.id, path, resumed: true };
      }
      const person = await findPerson(services, cache, profileId, user);
      const scope = await userScope(services.profiles, profileId);
      const jobId = services.journal.create({
        kind: 'person-export',
        profileId,
        title: `Export everything about ${person.username}`,
        params: {
          profileId,
          tenant: { name: services.profiles.nameOf(profileId), org: scope.org },
          by: scope.username,
          person,
          path,
        },
        items: [
          ...Object.keys(EXPORT_SOURCES).map((key) => ({ key, label: key })),
          { key: ZIP_ITEM, label: 'The zip' },
        ],
      });
      services.runner.start(jobId);
      return { jobId, path, resumed: false };
    },

    'person.erase': async ({ profileId: given, user, confirm }) => {
      const profileId = services.tenant(given);
      // Interrupted (a kill, a quit): the same erasure goes on, of the person it was started for.
      const pending = unfinished(profileId, 'person-erase', user);
      if (pending) {
        const report = reports.byJob(pending.id)!;
        if (confirm.trim() !== report.username)
          throw invalid('confirm', `Type ${report.username} to erase this person`);
        services.runner.start(pending.id);
        return { jobId: pending.id, reportId: report.id, resumed: true };
      }
      const seen = await preview(profileId, user);
      if (confirm.trim() !== seen.username) throw invalid('confirm', `Type ${seen.username} to erase this person`);
      if (seen.refusal) throw new EngineError('validation', seen.refusal);
      const person = { userId: seen.userId, username: seen.username, email: seen.email };
      const reportId = randomUUID();
      const jobId = services.journal.transaction(() => {
        const id = services.journal.create({
          kind: 'person-erase',
          profileId,
          title: `Erase ${person.username}`,
          params: { profileId, org: seen.scope.org, by: seen.scope.username, person },
          items: ERASE_STEPS.map((step) => ({ key: step, label: step })),
        });
        reports.create(profileId, {
          id: reportId,
          jobId: id,
          ...person,
          requestedBy: seen.scope.username,
          requestedAt: new Date().toISOString(),
          steps: seen.counts.map(({ step, count }) => ({ step, planned: count, erased: null })),
        });
        return id;
      });
      services.runner.start(jobId);
      return { jobId, reportId, resumed: false };
    },

    'person.erasures': ({ profileId: given }) => ({ reports: reports.list(services.tenant(given)) }),
  };
}
