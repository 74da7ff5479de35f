/** documents.list|setTraining|setAccess|setRetrain|delete|search for one mentor's documents. */
import type { MentorDocument, mentorCalls } from '../../../shared/contract';
import type { HandlersOf } from '../dispatch';
import { EngineError } from '../errors';
import { documentsList } from './cache';
import { toDocument, type DocumentApi } from './document-api';
import { explain, isMissing } from './explain';
import type { ListSource } from './freshness';
import { matches } from './matching';
import type { ApiDocument } from './shapes';
import { TenantCalls, type AreaParts } from './tenant';

type DocumentHandlers = Pick<
  HandlersOf<typeof mentorCalls>,
  | 'documents.list'
  | 'documents.setTraining'
  | 'documents.setAccess'
  | 'documents.setRetrain'
  | 'documents.delete'
  | 'documents.search'
>;

export const DOCUMENTS_STALE_MS = 30_000;
/** While something is training, the list goes stale as fast as the vendor's own UI polls. */
export const DOCUMENTS_PENDING_STALE_MS = 2_000;

interface DocumentInput {
  profileId?: string | undefined;
  mentor: string;
  documentId: string;
}

export function documentHandlers(parts: AreaParts): DocumentHandlers {
  const tenant = (profileId: string | undefined) => new TenantCalls(parts, profileId);

  /**
   * Runs a change on one document of one mentor. The document is read first: the PUT needs its current access
   * and pathway, and a document id of another mentor must not be touched (the PUT would move it).
   */
  async function change(
    input: DocumentInput,
    run: (api: DocumentApi, current: ApiDocument, mentor: string) => Promise<MentorDocument | null>,
  ): Promise<MentorDocument | null> {
    const t = tenant(input.profileId);
    return t.explained({ mentor: input.mentor }, async () => {
      const { uniqueId, name } = await t.resolve(input.mentor);
      const api = await t.documents();
      const current = await t.explained({ document: input.documentId }, () => api.get(input.documentId));
      if (current.pathway !== uniqueId) {
        throw new EngineError(
          'not_found',
          `Document '${input.documentId}' is not one of the documents of mentor '${name}'`,
        );
      }
      const changed = () => {
        t.freshener.wrote(t.profileId, documentsList(uniqueId));
        t.emit('documents.changed', { profileId: t.profileId, mentor: uniqueId });
      };
      let result: MentorDocument | null;
      try {
        result = await run(api, current, uniqueId);
      } catch (error) {
        if (isMissing(error)) {
          // Deleted elsewhere meanwhile: the cached row is wrong either way.
          t.cache.removeDocument(t.profileId, uniqueId, input.documentId);
          changed();
        }
        throw explain(error, { ...t.scope(), document: input.documentId });
      }
      if (result) t.cache.putDocument(t.profileId, uniqueId, result);
      else t.cache.removeDocument(t.profileId, uniqueId, input.documentId);
      changed();
      return result;
    });
  }

  const changeDocument = async (input: DocumentInput, run: Parameters<typeof change>[1]) =>
    (await change(input, run)) as MentorDocument;

  return {
    'documents.list': async ({ profileId, mentor: ref, status, search, refresh }) => {
      const t = tenant(profileId);
      const { uniqueId } = await t.explained({ mentor: ref }, () => t.resolve(ref));
      const { rows, freshness } = await t.freshener.answer(documentsSource(t, uniqueId), refresh ?? false);
      const documents = rows.filter((d) => (!status || d.status === status) && matches(search, d.name));
      return { documents, freshness };
    },

    'documents.setTraining': (input) =>
      changeDocument(input, async (api, current, pathway) =>
        toDocument(await api.update(input.documentId, { pathway, train: input.train, ...accessOf(current) })),
      ),

    'documents.setAccess': (input) =>
      changeDocument(input, async (api, _current, pathway) =>
        toDocument(await api.update(input.documentId, { pathway, access: input.access })),
      ),

    'documents.setRetrain': (input) =>
      changeDocument(input, async (api, current) => {
        // 0 days means never, like null: the platform counts intervals from 1.
        const days = await api.setRetrain(input.documentId, input.retrainIntervalDays || null);
        return { ...toDocument(current), retrainIntervalDays: days };
      }),

    'documents.delete': async (input) => {
      await change(input, async (api) => {
        await api.delete(input.documentId);
        return null;
      });
      return { ok: true as const };
    },

    'documents.search': async ({ profileId, mentor: ref, query, limit }) => {
      const t = tenant(profileId);
      return t.explained({ mentor: ref }, async () => {
        const { uniqueId } = await t.resolve(ref);
        return { passages: await (await t.documents()).search(uniqueId, query, limit) };
      });
    },
  };
}

/** Keeps the access a document has (the PUT would otherwise fall back to the platform's default, private). */
const accessOf = (current: ApiDocument): { access?: 'public' | 'private' } => {
  const { access } = toDocument(current);
  return access ? { access } : {};
};

function documentsSource(t: TenantCalls, mentor: string): ListSource<MentorDocument> {
  return {
    profileId: t.profileId,
    list: documentsList(mentor),
    read: () => t.cache.documents(t.profileId, mentor),
    fetch: async (options) => (await (await t.documents()).list(mentor, options)).map(toDocument),
    store: (rows, asOf) => t.cache.replaceDocuments(t.profileId, mentor, rows, asOf),
    changed: () => t.emit('documents.changed', { profileId: t.profileId, mentor }),
    staleAfterMs: (rows) =>
      rows.some((d) => d.status === 'pending') ? DOCUMENTS_PENDING_STALE_MS : DOCUMENTS_STALE_MS,
    asked: () => t.scope(),
  };
}
