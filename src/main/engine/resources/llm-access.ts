/**
 * The default LLM key and the free trial of a tenant: read together (the key's usage and the trial's state), switched
 * one at a time. Not cached: a switch is read back at once, and the screen shows when it could not be read.
 */
import type { LlmAccess, resourceCalls } from '../../../shared/contract';
import type { HandlersOf } from '../dispatch';
import { EngineError } from '../errors';
import { isUnreachable, offlineNote } from '../mentors';
import { ApiError } from '../platform';
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
): Pick<Handlers, 'llmAccess.get' | 'llmAccess.set'> {
  /** The last answer per connection and tenant, for this session: shown (and said to be old) when the tenant is down. */
  const last = new Map<string, { tenant: string; access: LlmAccess }>();
  return {
    'llmAccess.get': async ({ profileId: given }): Promise<LlmAccess> => {
      const profileId = ctx.tenant(given);
      const scope = await userScope(ctx.profiles, profileId);
      const tenant = `${scope.org} ${scope.username}`;
      try {
        const { usage, freeTrial } = await (await apiFor(profileId)).llmAccess();
        const record = isObject(usage) ? usage : null;
        const using = record?.use_main_credentials ?? record?.is_using_main_credentials ?? record?.enabled;
        const trial = isObject(freeTrial) ? freeTrial.is_in_free_trial : undefined;
        const access: LlmAccess = {
          defaultKey: typeof using === 'boolean' ? using : null,
          usage: record,
          freeTrial: typeof trial === 'boolean' ? trial : null,
          asOf: new Date().toISOString(),
          offline: null,
        };
        last.set(profileId, { tenant, access });
        return access;
      } catch (error) {
        const kept = last.get(profileId);
        if (kept && kept.tenant === tenant && isUnreachable(error))
          return { ...kept.access, offline: offlineNote(error) };
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
