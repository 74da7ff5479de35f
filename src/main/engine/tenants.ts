import { createPlatformClient, type PlatformClient, type RetryEvent, type TransportError } from './platform';
import type { Log } from './log';
import { NO_KEY_MESSAGE, type Profiles } from './profiles';
import { EngineError } from './errors';

/**
 * One platform client per tenant connection (several tenants can be open at once). A client is rebuilt when
 * its profile changes, e.g. after the admin enters a new key.
 */
export class TenantClients {
  private readonly clients = new Map<string, Promise<PlatformClient>>();

  constructor(
    private readonly deps: {
      profiles: Profiles;
      log: Log;
      /** Makes sure a profile's server is reachable first (the local sandbox is started on demand). */
      ready: (profileId: string) => Promise<void>;
      /** A call of the tenant is being retried (the job runner learns from 429s and timeouts how much it takes). */
      onRetry?: (profileId: string, event: RetryEvent) => void;
      /** Each attempt's outcome for reaching the tenant: it answered, or no answer came (reach.ts keeps it). */
      onReach?: (profileId: string, answered: boolean, error?: TransportError) => void;
    },
  ) {}

  get(profileId: string): Promise<PlatformClient> {
    let client = this.clients.get(profileId);
    if (!client) {
      client = this.build(profileId);
      this.clients.set(profileId, client);
      client.catch(() => this.clients.delete(profileId));
    }
    return client;
  }

  /** Forget a profile's client so the next call uses its new address or key. */
  invalidate(profileId: string): void {
    this.clients.delete(profileId);
  }

  private async build(profileId: string): Promise<PlatformClient> {
    await this.deps.ready(profileId);
    const connection = await this.deps.profiles.connection(profileId);
    if (!connection.secret) {
      throw new EngineError('validation', NO_KEY_MESSAGE);
    }
    return createPlatformClient({
      baseUrl: connection.baseUrl,
      authScheme: connection.authScheme,
      secret: connection.secret,
      log: this.deps.log,
      ...(this.deps.onRetry && { onRetry: (event: RetryEvent) => this.deps.onRetry!(profileId, event) }),
      ...(this.deps.onReach && {
        onReach: (answered: boolean, error?: TransportError) => this.deps.onReach!(profileId, answered, error),
      }),
    });
  }
}

/** The path prefix of per-user calls: `/api/<area>/orgs/{org}/users/{username}`. */
export async function userScope(profiles: Profiles, profileId: string) {
  const connection = await profiles.connection(profileId);
  return {
    org: connection.org,
    username: connection.username,
    orgPath: encodeURIComponent(connection.org),
    userPath: encodeURIComponent(connection.username),
  };
}
