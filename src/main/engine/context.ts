import type { EventName, EventPayload } from '../../shared/contract';
import type { EngineConfig } from './config';
import type { ItemReport } from './jobs/handlers';
import type { JobKindRunner, JobRunner } from './jobs/runner';
import type { JobJournal } from './jobs/journal';
import type { Log } from './log';
import type { Profiles } from './profiles/profiles';
import type { SettingsStore } from './settings/settings';
import type { Db } from './store/database';
import type { TenantClients } from './tenants';

/** What every area of the engine (mentors, training, invitations, …) is built from. */
export interface EngineContext {
  db: Db;
  config: EngineConfig;
  profiles: Profiles;
  settings: SettingsStore;
  clients: TenantClients;
  jobs: { runner: JobRunner; journal: JobJournal };
  emit: <E extends EventName>(name: E, payload: EventPayload<E>) => void;
  log: Log;
  /** Bulk writes are coming (a job, a ticket sync): SQLite's checkpoints move off the engine's thread. */
  bulkWrites(): void;
  /** The given profile, or the active one; a clear error when there is none. */
  tenant(profileId?: string): string;
}

/** An area's part of the engine: its call handlers, and the job kinds it runs. */
export interface EngineArea<H> {
  handlers: H;
  kinds?: JobKindRunner[];
  reports?: Partial<Record<JobKindRunner['kind'], ItemReport>>;
  close?(): Promise<void> | void;
}
