import type { Db } from './db';
import type { Router } from './http/router';
import type { UploadRefusal } from './faults';
import type { Rng } from './rng';

export type SeedSize = 'none' | 'demo' | 'large';

export interface SandboxConfig {
  dataDir: string;
  /** Largest accepted upload in bytes (default 25 MB); above it `documents/train/` answers 413 'File too large'. */
  uploadLimitBytes: number;
  /** Tickets opened and learner replies added per minute by the simulator (0 = off). */
  simulateRate: number;
}

export interface AreaDeps {
  db: Db;
  config: SandboxConfig;
  /** Fixed "now" for seeding so the same seed gives the same data; the live clock elsewhere. */
  now: () => Date;
  /** Fault injection: the refusal the sandbox answers to an upload of this name, if it is told to refuse it. */
  refusedUpload?(uploadName: string): UploadRefusal | undefined;
}

/** One part of the platform: its tables, its routes, its demo data and its background work. */
export interface Area {
  name: string;
  schema: string;
  routes(router: Router, deps: AreaDeps): void;
  /** Called once on an empty database, in area order, after the core area has created orgs and users. */
  seed?(deps: AreaDeps, size: Exclude<SeedSize, 'none'>, rng: Rng): void;
  /** Background work (training worker, simulator); returns a function that stops it. */
  start?(deps: AreaDeps): () => Promise<void> | void;
}
