/**
 * The default LLM key and the free trial of a tenant: read together (the key's usage and the trial's state), switched
 * one at a time. Every read asks the tenant (a switch is read back at once); its last answer is kept in the engine's
 * answer cache (SQLite, per profile and connection) and stands in, said to be old, when the tenant cannot be reached,
 * after a restart too.
 */
import type { LlmAccess, resourceCalls } from '../../../shared/contract';
import type { HandlersOf } from '../dispatch';
import { EngineError } from '../errors';
import { withSavedCopy } from '../saved-copy';
import { ApiError } from '../platform';
import type { AnswerCache } from '../store';
import { userScope } from '../tenants';
import type { ResourceApi } from './api';
import type { ResourceServices } from './handlers';

type Handlers = HandlersOf<typeof resourceCalls>;

const isObject = (value: unknown): value is Record<string, unknown> =>
  !!value && typeof value === 'object' && !Array.isArray(value);

/** A platform error in the admin's words; a field error of a switch has no field on the screen. */
function explained(error: unknown): unknown {
  if (!(error instanceof ApiError)) return error;
  const body = isObject(error.body) ? error.body : {};
  const said = Object.values(body)
    .flatMap((value) => (Array.isArray(value) ? value : [value]))
    .filter((text): text is string => typeof text === 'string');
  const detail = said.length ? said.join(' ') : error.detail;
  const hint = error.status === 403 ? ": this needs a tenant admin's key (Settings → Tenants)" : '';
  return new EngineError('api', `${error.message}${detail ? ` (${detail})` : ''}${hint}`, { status: error.status });
}

export function llmAccessHandlers(
  ctx: ResourceServices,
  apiFor: (profileId: string) => Promise<ResourceApi>,
  answers: AnswerCache,
): Pick<Handlers, 'llmAccess.get' | 'llmAccess.set'> {
  return {
    'llmAccess.get': async ({ profileId: given }): Promise<LlmAccess> => {
      const profileId = ctx.tenant(given);
      // Kept under the connection's org and user: a profile pointed at another tenant never shows the first one's.
      const { org, username } = await userScope(ctx.profiles, profileId);
      try {
        const { value, freshness } = await withSavedCopy(
          answers,
          { profileId, call: 'llmAccess.get', params: { org, username } },
          async (): Promise<Omit<LlmAccess, 'asOf' | 'offline'>> => {
            const { usage, freeTrial } = await (await apiFor(profileId)).llmAccess();
            const record = isObject(usage) ? usage : null;
            const using = record?.use_main_credentials ?? record?.is_using_main_credentials ?? record?.enabled;
            const trial = isObject(freeTrial) ? freeTrial.is_in_free_trial : undefined;
            return {
              defaultKey: typeof using === 'boolean' ? using : null,
              usage: record,
              freeTrial: typeof trial === 'boolean' ? trial : null,
            };
          },
        );
        return { ...value, asOf: freshness.asOf ?? new Date().toISOString(), offline: freshness.offline };
      } catch (error) {
        throw explained(error);
      }
    },
    'llmAccess.set': async ({ profileId: given, defaultKey, freeTrial }) => {
      const profileId = ctx.tenant(given);
      const api = await apiFor(profileId);
      const messages: string[] = [];
      try {
        if (defaultKey !== undefined) messages.push(await api.switchLlmAccess('default-key', defaultKey));
        if (freeTrial !== undefined) messages.push(await api.switchLlmAccess('free-trial', freeTrial));
      } catch (error) {
        throw explained(error);
      } finally {
        ctx.emit('llmAccess.changed', { profileId });
      }
      return { messages };
    },
  };
}
