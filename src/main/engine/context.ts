/**
 * What the engine hands its areas (mentors, training, analytics, invitations, tickets): narrow services, each with
 * one owner, never the database or the environment. An area's own tables are reached through its store modules,
 * which the engine opens for it (each area's `…Stores(db)`); SQL lives only there (lint: project/sql-in-stores).
 */
import type { EventName, EventPayload } from '../../shared/contract';
import type { EngineConfig } from './config';
import type { JobJournal, JobRunner } from './jobs';
import type { Log } from './log';
import type { PlatformClient } from './platform';
import type { Profiles } from './profiles';
import type { SettingsStore } from './settings';

export type Emit = <E extends EventName>(name: E, payload: EventPayload<E>) => void;

export interface EngineServices {
  config: EngineConfig;
  /** The job journal: the only way to `jobs` and `job_items`. */
  journal: JobJournal;
  /** The one job runner: areas start, and ask about, the jobs of the kinds they register. */
  runner: JobRunner;
  profiles: Profiles;
  settings: SettingsStore;
  /** The tenant's platform client (its typed API is `.api`): one per profile, rebuilt when the profile changes. */
  platform(profileId: string): Promise<PlatformClient>;
  emit: Emit;
  log: Log;
  /** Bulk writes are coming (a job, a ticket sync): SQLite's checkpoints move off the engine's thread. */
  bulkWrites(): void;
  /** The given profile, or the active one; a clear error when there is none. */
  tenant(profileId?: string): string;
}

/** An area's part of the engine: its call handlers, and what to close; it registers its job kinds with the runner. */
export interface EngineArea<H> {
  handlers: H;
  /** The tenant answered again after being out of reach: work the area left to a timed retry may go now. */
  answeredAgain?(profileId: string): void;
  close?(): Promise<void> | void;
}
