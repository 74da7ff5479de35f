/**
 * The engine's areas, each loaded (its module and what it is built on: ticket markup parsers, CSV, globs…) only
 * when the engine is composed with it. The app and browser mode compose them all; a command-line command composes
 * the ones it calls, so `mentor-admin profile list` starts without reading the code of any of them. An area left out
 * answers each of its calls with an error that says so: a command that calls outside its areas is a bug.
 */
import {
  analyticsCalls,
  invitationCalls,
  mentorCalls,
  mentorSharingCalls,
  mentorVoiceCalls,
  resourceCalls,
  reviewCalls,
  ticketCalls,
  trainCalls,
} from '../../shared/contract';
import type { z } from 'zod';
import type { EngineConfig } from './config';
import type { EngineArea, EngineServices } from './context';
import type { HandlersOf } from './dispatch';
import { EngineError } from './errors';
import type { JobJournal } from './jobs';
import type { Log } from './log';
import type { Db } from './store';
import type { MentorsArea } from './mentors';

export const AREA_NAMES = ['mentors', 'train', 'analytics', 'invitations', 'tickets', 'resources', 'review'] as const;
export type AreaName = (typeof AREA_NAMES)[number];

/** Areas built on another one: training tells the mentors area when a mentor's documents changed. */
const BUILT_ON: Partial<Record<AreaName, AreaName[]>> = { train: ['mentors'] };

export interface ComposedAreas {
  /** With `documentsChanged` when the mentors area is loaded (a copy's documents are announced through it). */
  mentors: EngineArea<HandlersOf<typeof mentorCalls & typeof mentorSharingCalls & typeof mentorVoiceCalls>> &
    Partial<Pick<MentorsArea, 'documentsChanged'>>;
  training: EngineArea<HandlersOf<typeof trainCalls>>;
  analytics: EngineArea<HandlersOf<typeof analyticsCalls>>;
  invitations: EngineArea<HandlersOf<typeof invitationCalls>>;
  tickets: EngineArea<HandlersOf<typeof ticketCalls>>;
  resources: EngineArea<HandlersOf<typeof resourceCalls>>;
  review: EngineArea<HandlersOf<typeof reviewCalls>>;
}

/** Builds the areas named (all by default, and those they are built on); the others answer that they are absent. */
/** What the areas' own stores are opened on. */
export interface AreaStoreDeps {
  db: Db;
  journal: JobJournal;
  config: EngineConfig;
  log: Log;
}

export async function composeAreas(
  services: EngineServices,
  { db, journal, config, log }: AreaStoreDeps,
  names: readonly AreaName[] = AREA_NAMES,
): Promise<ComposedAreas> {
  const wanted = new Set(names.flatMap((name) => [...(BUILT_ON[name] ?? []), name]));
  // Loaded together; built in order (training is handed the mentors area).
  const [mentors, train, analytics, invitations, tickets, resources, review] = await Promise.all([
    wanted.has('mentors') ? import('./mentors') : null,
    wanted.has('train') ? import('./train') : null,
    wanted.has('analytics') ? import('./analytics') : null,
    wanted.has('invitations') ? import('./invitations') : null,
    wanted.has('tickets') ? import('./tickets') : null,
    wanted.has('resources') ? import('./resources') : null,
    wanted.has('review') ? import('./review') : null,
  ]);
  const mentorsArea = mentors?.mentorsArea(services, mentors.mentorStores(db, log, services.profiles));
  return {
    mentors: mentorsArea ?? absent('mentors', { ...mentorCalls, ...mentorSharingCalls, ...mentorVoiceCalls }),
    training:
      train && mentorsArea
        ? train.trainArea(services, train.trainStores(db, journal), mentorsArea)
        : absent('train', trainCalls),
    analytics:
      analytics?.analyticsArea(services, analytics.analyticsStores(db, services)) ??
      absent('analytics', analyticsCalls),
    invitations:
      invitations?.invitationsArea(services, invitations.invitationStores(db, config)) ??
      absent('invitations', invitationCalls),
    tickets: tickets?.ticketsArea(services, tickets.ticketStores(db)) ?? absent('tickets', ticketCalls),
    resources:
      resources?.resourcesArea(services, resources.resourceStores(db, services, services.profiles)) ??
      absent('resources', resourceCalls),
    review: review?.reviewArea(services, review.reviewStores(db, services)) ?? absent('review', reviewCalls),
  };
}

type CallTable = Record<string, { input: z.ZodType; output: z.ZodType }>;

function absent<C extends CallTable>(area: AreaName, calls: C): EngineArea<HandlersOf<C>> {
  const refuse = (name: string) => () => {
    throw new EngineError('internal', `${name} is not available here: this process runs without the ${area} area`);
  };
  return {
    handlers: Object.fromEntries(Object.keys(calls).map((name) => [name, refuse(name)])) as unknown as HandlersOf<C>,
  };
}
