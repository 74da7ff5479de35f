/** What a mentors or documents call needs about its tenant: ids, paths, API clients and the cache. */
import type { EngineServices } from '../context';
import type { PlatformClient } from '../platform';
import type { MentorCache } from './cache';
import { DocumentApi } from './document-api';
import { explain, type Asked } from './explain';
import type { Freshener } from './freshness';
import { MentorApi } from './mentor-api';
import { resolveMentorRef, type Scope } from './resolve';

/** What the mentors area uses of the engine. */
export type MentorServices = Pick<EngineServices, 'platform' | 'emit' | 'log' | 'tenant' | 'profiles'>;

export interface AreaParts {
  services: MentorServices;
  cache: MentorCache;
  freshener: Freshener;
}

export class TenantCalls {
  readonly profileId: string;

  constructor(
    private readonly parts: AreaParts,
    profileId: string | undefined,
  ) {
    this.profileId = parts.services.tenant(profileId);
  }

  get cache(): MentorCache {
    return this.parts.cache;
  }

  get freshener(): Freshener {
    return this.parts.freshener;
  }

  scope(): Scope {
    return this.parts.services.profiles.scope(this.profileId);
  }

  client(): Promise<PlatformClient> {
    return this.parts.services.platform(this.profileId);
  }

  async mentors(): Promise<MentorApi> {
    return new MentorApi(await this.client(), this.scope(), this.parts.services.log);
  }

  async documents(): Promise<DocumentApi> {
    return new DocumentApi(await this.client(), this.scope(), this.parts.services.log);
  }

  /** The mentor's unique id and name; from the cache when it knows the reference, else from the platform. */
  resolve(ref: string): Promise<{ uniqueId: string; name: string }> {
    return resolveMentorRef(
      { cache: this.cache, client: () => this.client(), scope: async () => this.scope(), log: this.parts.services.log },
      this.profileId,
      ref,
    );
  }

  emit: EngineServices['emit'] = (name, payload) => this.parts.services.emit(name, payload);

  /** Runs a call and turns platform errors into messages about what was asked. */
  async explained<T>(asked: Omit<Asked, 'org' | 'username'>, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw explain(error, { ...this.safeScope(), ...asked });
    }
  }

  private safeScope(): Scope {
    try {
      return this.scope();
    } catch {
      return { org: '?', username: '?' };
    }
  }
}
