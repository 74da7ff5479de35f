/** What a mentors or documents call needs about its tenant: ids, paths, API clients and the cache. */
import type { EngineContext } from '../context';
import type { PlatformClient } from '../platform';
import type { MentorCache } from './cache';
import { DocumentApi } from './document-api';
import { explain, type Asked } from './explain';
import type { Freshener } from './freshness';
import { MentorApi } from './mentor-api';
import { resolveMentorRef, type Scope } from './resolve';

export interface AreaParts {
  ctx: EngineContext;
  cache: MentorCache;
  freshener: Freshener;
}

export class TenantCalls {
  readonly profileId: string;

  constructor(
    private readonly parts: AreaParts,
    profileId: string | undefined,
  ) {
    this.profileId = parts.ctx.tenant(profileId);
  }

  get cache(): MentorCache {
    return this.parts.cache;
  }

  get freshener(): Freshener {
    return this.parts.freshener;
  }

  scope(): Scope {
    return this.parts.cache.scope(this.profileId);
  }

  client(): Promise<PlatformClient> {
    return this.parts.ctx.clients.get(this.profileId);
  }

  async mentors(): Promise<MentorApi> {
    return new MentorApi(await this.client(), this.scope(), this.parts.ctx.log);
  }

  async documents(): Promise<DocumentApi> {
    return new DocumentApi(await this.client(), this.scope(), this.parts.ctx.log);
  }

  /** The mentor's unique id and name; from the cache when it knows the reference, else from the platform. */
  resolve(ref: string): Promise<{ uniqueId: string; name: string }> {
    return resolveMentorRef(
      { cache: this.cache, client: () => this.client(), scope: async () => this.scope(), log: this.parts.ctx.log },
      this.profileId,
      ref,
    );
  }

  emit: EngineContext['emit'] = (name, payload) => this.parts.ctx.emit(name, payload);

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
