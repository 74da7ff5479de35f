/**
 * mentors.sharing|share|unshare|fork|templates|createWithWizard: a mentor's sharable link, and new mentors made from
 * another (a fork) or through the create-mentor wizard (from a template, when one is chosen).
 */
import type { mentorSharingCalls, SharableLink, TemplateMentor } from '../../../shared/contract';
import type { HandlersOf } from '../dispatch';
import { EngineError } from '../errors';
import { ApiError, drfIssues } from '../platform';
import { isMissing } from './explain';
import { MENTORS_LIST } from './cache';
import { toMentor } from './resolve';
import { SharingApi, type ApiSharableLink, type ApiTemplateMentor } from './sharing-api';
import { TenantCalls, type AreaParts } from './tenant';

type SharingHandlers = HandlersOf<typeof mentorSharingCalls>;

const toLink = (api: ApiSharableLink): SharableLink => ({
  token: api.token,
  // The spec's `enabled` is optional; a link the platform answers without it is taken as on (the model's default).
  enabled: api.enabled ?? true,
  createdAt: api.inserted_at ?? null,
  updatedAt: api.updated_at ?? null,
});

const toTemplate = (api: ApiTemplateMentor): TemplateMentor => ({
  id: api.id,
  name: api.name,
  slug: api.slug ?? null,
  uniqueId: api.unique_id ?? null,
  description: api.description ?? null,
  systemPrompt: api.system_prompt ?? null,
  platform: api.platform_key ?? api.platform ?? null,
});

/**
 * The platform's refusal of a body (DRF's `{field: ["…"]}`) as issues at the contract's fields (`renamed` maps the
 * platform's field names to them), so a form shows each message under its field; undefined when it names no field.
 */
function refusedFields(error: unknown, renamed: Record<string, string>): EngineError | undefined {
  if (!(error instanceof ApiError) || error.status !== 400) return undefined;
  const issues = drfIssues(error.body).map((issue) => ({ ...issue, path: renamed[issue.path] ?? issue.path }));
  if (!issues.length) return undefined;
  const said = issues.map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message)).join('; ');
  return new EngineError('validation', `${error.detail ?? error.message} (${said})`, {
    issues,
    status: error.status,
  });
}

export function sharingHandlers(parts: AreaParts): SharingHandlers {
  const tenant = (profileId: string | undefined) => new TenantCalls(parts, profileId);
  const sharing = async (t: TenantCalls) => new SharingApi(await t.client(), t.scope(), parts.services.log);

  const sharingChanged = (t: TenantCalls, mentor: string) =>
    t.emit('mentors.sharingChanged', { profileId: t.profileId, mentor });
  const mentorsChanged = (t: TenantCalls) => {
    t.freshener.wrote(t.profileId, MENTORS_LIST);
    t.emit('mentors.changed', { profileId: t.profileId });
  };

  /** The link, or null when the mentor has none (the platform answers 404). */
  async function currentLink(api: SharingApi, uniqueId: string): Promise<ApiSharableLink | null> {
    try {
      return await api.link(uniqueId);
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  return {
    'mentors.sharing': async ({ profileId, mentor: ref }) => {
      const t = tenant(profileId);
      return t.explained({ mentor: ref }, async () => {
        const { uniqueId } = await t.resolve(ref);
        const api = await sharing(t);
        const [link, publicCheck] = await Promise.all([
          currentLink(api, uniqueId),
          api.publicLink(uniqueId).then(
            (answer) => ({ enabled: answer.enabled ?? true, error: null }),
            (error: unknown) =>
              isMissing(error)
                ? { enabled: null, error: null }
                : { enabled: null, error: error instanceof Error ? error.message : String(error) },
          ),
        ]);
        return { link: link && toLink(link), publicCheck };
      });
    },

    'mentors.share': async ({ profileId, mentor: ref }) => {
      const t = tenant(profileId);
      return t.explained({ mentor: ref }, async () => {
        const { uniqueId } = await t.resolve(ref);
        const api = await sharing(t);
        const existing = await currentLink(api, uniqueId);
        try {
          if (!existing) return toLink(await api.createLink(uniqueId));
          if (existing.enabled === false) return toLink(await api.setLinkEnabled(uniqueId, true));
          return toLink(existing);
        } finally {
          sharingChanged(t, uniqueId);
        }
      });
    },

    'mentors.unshare': async ({ profileId, mentor: ref }) => {
      const t = tenant(profileId);
      return t.explained({ mentor: ref }, async () => {
        const { uniqueId } = await t.resolve(ref);
        try {
          await (await sharing(t)).revokeLink(uniqueId);
        } catch (error) {
          // No link to revoke: the mentor is in the state asked for.
          if (!isMissing(error)) throw error;
        }
        sharingChanged(t, uniqueId);
        return { ok: true as const };
      });
    },

    'mentors.fork': async ({ profileId, mentor: ref, name, cloneDocuments }) => {
      const t = tenant(profileId);
      return t.explained({ mentor: ref }, async () => {
        const { uniqueId } = await t.resolve(ref);
        const api = await sharing(t);
        try {
          const forked = await api.fork(uniqueId, name, cloneDocuments);
          const fresh = await (await t.mentors()).settings(forked.unique_id).catch(() => null);
          const mentor = toMentor(forked, fresh);
          t.cache.putMentor(t.profileId, { mentor, settingsOf: fresh?.updated_at ?? forked.updated_at ?? null });
          mentorsChanged(t);
          return mentor;
        } catch (error) {
          throw refusedFields(error, { new_mentor_name: 'name', clone_documents: 'cloneDocuments' }) ?? error;
        }
      });
    },

    'mentors.templates': async (input) => {
      const t = tenant(input?.profileId);
      return t.explained({}, async () => ({ templates: (await (await sharing(t)).templates()).map(toTemplate) }));
    },

    'mentors.createWithWizard': async ({ profileId, name, description, template, visibility }) => {
      const t = tenant(profileId);
      const api = await sharing(t);
      const created = await t.explained({}, async () => {
        try {
          return await api.createWithWizard(name, description);
        } catch (error) {
          throw refusedFields(error, {}) ?? error;
        }
      });
      const mentors = await t.mentors();
      try {
        const settings =
          template || visibility
            ? await mentors.putOrigin(created.unique_id, { template, visibility })
            : await mentors.settings(created.unique_id).catch(() => null);
        const mentor = toMentor(created, settings);
        t.cache.putMentor(t.profileId, { mentor, settingsOf: settings?.updated_at ?? created.updated_at ?? null });
        return mentor;
      } catch (error) {
        // The mentor exists now: keep it on screen and say what is missing.
        t.cache.putMentor(t.profileId, { mentor: toMentor(created), settingsOf: null });
        const words = error instanceof Error ? error.message : String(error);
        throw new EngineError(
          'api',
          `Mentor '${created.name}' was created, but its template and visibility could not be saved (${words}). ` +
            'Set them in the mentor’s settings.',
        );
      } finally {
        mentorsChanged(t);
      }
    },
  };
}
