/**
 * Whether each tenant connection can be reached, learnt from every platform call the engine makes (the transport
 * reports each attempt: answered, or no answer) rather than by each screen from its own refresh. A change is an event,
 * so every screen of that tenant, and only of that tenant, knows at once. When nothing is known yet, or it is old,
 * a read checks it with one light call through the tenant's own client.
 */
import type { EventName, EventPayload, TenantReach as Reach } from '../../shared/contract';
import type { PlatformClient, TransportError } from './platform';
import type { Profiles } from './profiles';

/** Older than this, what was learnt is checked again when a screen asks. */
export const REACH_STALE_MS = 60_000;
/** The check answers quickly: one attempt, a short wait. */
const PROBE_TIMEOUT_MS = 5_000;

interface Known {
  reachable: boolean;
  at: number;
  reason: string | null;
}

export class TenantReachability {
  private readonly known = new Map<string, Known>();
  private readonly probes = new Map<string, Promise<Reach>>();

  constructor(
    private readonly deps: {
      emit: <E extends EventName>(name: E, payload: EventPayload<E>) => void;
      platform: (profileId: string) => Promise<PlatformClient>;
      profiles: Pick<Profiles, 'connection'>;
      now?: () => number;
    },
  ) {}

  /** What one attempt to reach the tenant showed (any answer: reachable; no answer: not). */
  observe(profileId: string, answered: boolean, error?: TransportError): void {
    const was = this.known.get(profileId);
    const reason = answered ? null : (error?.message ?? 'No answer');
    if (was?.reachable === answered) {
      // Every call passes here: the same state only gets its time (and reason) brought up to date.
      was.at = this.now();
      was.reason = reason;
      return;
    }
    this.known.set(profileId, { reachable: answered, at: this.now(), reason });
    this.deps.emit('tenants.reachChanged', {
      ...this.read(profileId),
      previous: was ? (was.reachable ? 'reachable' : 'unreachable') : 'unknown',
    });
  }

  read(profileId: string): Reach {
    const known = this.known.get(profileId);
    if (!known) return { profileId, state: 'unknown', checkedAt: null, reason: null };
    return {
      profileId,
      state: known.reachable ? 'reachable' : 'unreachable',
      checkedAt: new Date(known.at).toISOString(),
      reason: known.reason,
    };
  }

  /** What is known; when that is nothing or old, a check starts (its outcome comes as an event). */
  readChecking(profileId: string): Reach {
    const known = this.known.get(profileId);
    if (!known || this.now() - known.at > REACH_STALE_MS) void this.probe(profileId).catch(() => {});
    return this.read(profileId);
  }

  /** One light read of the tenant (the first page of the key user's mentors, as Test connection reads). */
  probe(profileId: string): Promise<Reach> {
    let running = this.probes.get(profileId);
    if (!running) {
      running = this.check(profileId).finally(() => this.probes.delete(profileId));
      this.probes.set(profileId, running);
    }
    return running;
  }

  forget(profileId: string): void {
    this.known.delete(profileId);
  }

  private async check(profileId: string): Promise<Reach> {
    const client = await this.deps.platform(profileId);
    const { org, username } = await this.deps.profiles.connection(profileId);
    try {
      await client.api.GET('/api/ai-mentor/orgs/{org}/users/{user_id}/', {
        params: { path: { org, user_id: username }, query: { page: 1, page_size: 1 } },
        timeoutMs: PROBE_TIMEOUT_MS,
        maxAttempts: 1,
      });
    } catch {
      // Whatever it was, the transport has told `observe` whether the tenant answered.
    }
    return this.read(profileId);
  }

  private now(): number {
    return (this.deps.now ?? Date.now)();
  }
}
