/**
 * Invitations: the platform's invitation lists (platform, course, program), single invitations, and importing
 * people from CSV files through a validated, fixable draft into the durable `invite` job.
 */
import type { invitationCalls } from '../../../shared/contract/invitations';
import type { EngineConfig } from '../config';
import type { EngineArea } from '../context';
import type { Db } from '../store';
import type { HandlersOf } from '../dispatch';
import { conflict, EngineError, invalid } from '../errors';
import { ApiError } from '../platform';
import { userScope } from '../tenants';
import {
  createInvitation,
  listCourses,
  listInvitations,
  listPrograms,
  revokeInvitation,
  targetKey,
  targetQuery,
  toInvitation,
  type ApiInvitation,
} from './api';
import type { Freshness } from '../../../shared/contract';
import { isUnreachable, offlineNote } from '../mentors';
import { importBatches } from './batches';
import { ImportService, type ImportServices } from './import-service';
import { ImportRows } from './import-rows-store';
import { ImportStore } from './import-store';
import { InviteLedger } from './ledger-store';
import { importTasks, type ImportTasks } from './worker-runner';
import { InvitationCache, pageReader } from './list-cache';
import { inviteKind } from './job';
import { inviteReport } from './report';
import { asciiEmail } from './validate';

/** A search reads the whole list again when the copy is older than this. */
const SEARCH_COPY_MAX_AGE_MS = 60_000;
/** The list screen keeps the copy at most this old, in the background. */
const BACKGROUND_COPY_MAX_AGE_MS = 10 * 60_000;

export interface InvitationStores {
  cache: InvitationCache;
  rows: ImportRows;
  imports: ImportStore;
  ledger: InviteLedger;
  /** Reading files and writing jobs' items, in worker threads with their own connections. */
  tasks: ImportTasks;
}

/** The invitations area's tables, opened by the engine on its database. */
export function invitationStores(db: Db, config: Pick<EngineConfig, 'nativeBinding'>): InvitationStores {
  const rows = new ImportRows(db);
  return {
    cache: new InvitationCache(db),
    rows,
    imports: new ImportStore(db, rows),
    ledger: new InviteLedger(db),
    tasks: importTasks(db, config.nativeBinding),
  };
}

export function invitationsArea(
  services: ImportServices,
  stores: InvitationStores,
): EngineArea<HandlersOf<typeof invitationCalls>> {
  const imports = new ImportService(services, stores, services.config.invite);
  void imports.removeOld().catch(() => {});
  const { cache, ledger } = stores;
  services.runner.register({
    ...inviteKind({
      ledger,
      onFinished: (profileId) => {
        if (profileId) services.emit('invitations.changed', { profileId });
      },
    }),
    report: inviteReport,
  });

  async function tenant(profileId: string | undefined) {
    const id = services.tenant(profileId);
    const [client, scope] = await Promise.all([services.platform(id), userScope(services.profiles, id)]);
    return { id, client, scope };
  }

  return {
    close: async () => {
      await imports.close();
      await cache.idle();
    },
    handlers: {
      'invitations.list': async (input) => {
        const { id, client, scope } = await tenant(input.profileId);
        const key = targetKey(input.target, scope.org);
        const answer = (rows: ApiInvitation[], total: number, freshness: Freshness) => ({
          invitations: rows.map((row) => toInvitation(row, input.target)),
          total,
          page: input.page,
          pageSize: input.pageSize,
          freshness,
        });
        const fromCopy = (offline: string | null) => {
          const page = cache.page(id, key, input);
          return answer(page.rows, page.total, { asOf: cache.syncedAt(id, key), source: 'cache', offline });
        };
        const readWhole = () => cache.sync(id, key, pageReader(client, scope.org, input.target));

        if (input.search) {
          // The platform matches addresses only exactly: part of one is looked up in the copy, read whole first.
          const asOf = cache.syncedAt(id, key);
          if (input.refresh || !asOf || Date.now() - Date.parse(asOf) > SEARCH_COPY_MAX_AGE_MS) {
            try {
              await readWhole();
            } catch (error) {
              if (!asOf || !isUnreachable(error)) throw error;
              return fromCopy(offlineNote(error));
            }
          }
          return fromCopy(null);
        }
        try {
          const page = await listInvitations(client, scope.org, input);
          cache.upsert(id, key, page.results);
          const asOf = cache.syncedAt(id, key);
          if (!asOf || Date.now() - Date.parse(asOf) > BACKGROUND_COPY_MAX_AGE_MS) {
            // Kept ready for a search, and for when the tenant cannot be reached.
            void readWhole().catch((error: unknown) =>
              services.log(`invitations: copying the ${key} list failed: ${String(error)}`),
            );
          }
          return answer(page.results, page.count, { asOf: new Date().toISOString(), source: 'api', offline: null });
        } catch (error) {
          if (!isUnreachable(error) || !cache.syncedAt(id, key) || input.email) throw error;
          return fromCopy(offlineNote(error));
        }
      },
      'invitations.batches': (input) => {
        const profileId = services.tenant(input?.profileId);
        return { batches: importBatches(services.journal, profileId) };
      },
      'invitations.create': async (input) => {
        const { id, client, scope } = await tenant(input.profileId);
        const email = asciiEmail(input.email);
        if (!email) throw invalid('email', 'Not a valid email address');
        const fields = {
          email,
          source: scope.username,
          active: input.active,
          ...(input.redirectTo ? { redirect_to: input.redirectTo } : {}),
          ...(input.firstName ? { first_name: input.firstName } : {}),
          ...(input.lastName ? { last_name: input.lastName } : {}),
        };
        let created: ApiInvitation;
        try {
          created = await createInvitation(client, scope.org, input.target, fields);
        } catch (error) {
          if (error instanceof ApiError && error.status === 400 && /already/i.test(error.detail ?? '')) {
            throw conflict(
              `${input.email} is ${/member/i.test(error.detail ?? '') ? 'already a member' : 'already invited'}`,
            );
          }
          if (error instanceof ApiError && error.status === 404) {
            throw new EngineError('not_found', error.detail ?? 'The target does not exist', { status: 404 });
          }
          throw error;
        }
        cache.upsert(id, targetKey(input.target, scope.org), [created]);
        ledger.recordInvited(id, targetKey(input.target, scope.org), null, new Date().toISOString(), [
          email.toLowerCase(),
        ]);
        services.emit('invitations.changed', { profileId: id });
        return toInvitation(created, input.target);
      },
      'invitations.revoke': async (input) => {
        const { id, client, scope } = await tenant(input.profileId);
        try {
          await revokeInvitation(client, input.target, { ...targetQuery(input.target, scope.org), id: input.id });
        } catch (error) {
          if (error instanceof ApiError && error.status === 404) {
            throw new EngineError('not_found', 'That invitation no longer exists', { status: 404 });
          }
          throw error;
        }
        cache.remove(id, targetKey(input.target, scope.org), input.id);
        services.emit('invitations.changed', { profileId: id });
        return { ok: true as const };
      },
      'invitations.courses': async (input) => {
        const { client, scope } = await tenant(input?.profileId);
        return { courses: await listCourses(client, scope.org) };
      },
      'invitations.programs': async (input) => {
        const { client, scope } = await tenant(input?.profileId);
        return { programs: await listPrograms(client, scope.org) };
      },

      'invitations.importOpen': (input) => imports.open(input),
      'invitations.importConfigure': ({ id, ...change }) => imports.configure(id, change),
      'invitations.importParse': ({ id, wait }) => imports.parse(id, wait),
      'invitations.importTarget': ({ id, wait, ...target }) => imports.target(id, target, wait),
      'invitations.importGet': ({ id }) => imports.draft(id),
      'invitations.importRows': ({ id, filter, offset, limit }) => imports.rowsPage(id, filter, offset, limit),
      'invitations.importEditRow': ({ id, line, field, value }) => imports.editRow(id, line, field, value),
      'invitations.importDropRows': ({ id, lines, dropped }) => ({ changed: imports.dropRows(id, lines, dropped) }),
      'invitations.importStart': ({ id, skipInvalid }) => imports.start(id, { skipInvalid }),
      'invitations.importDiscard': async ({ id }) => {
        await imports.discard(id);
        return { ok: true as const };
      },
    },
  };
}
export { listInvitations, type ApiInvitation } from './api';
