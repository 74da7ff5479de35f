/**
 * Jobs that another Mentor Admin process runs on the same data folder (`mentor-admin jobs resume`, the background
 * process of `train --no-wait`) write the same journal but emit nothing here. SQLite's `data_version` changes for
 * this connection only when another connection commits, so looking at it once a second costs next to nothing; when it
 * moved, the jobs changed since are read, and those this engine does not run itself are announced as if they ran
 * here — `jobs.changed` when their state moved, `jobs.progress` otherwise — so open screens and desktop notifications
 * follow them.
 */
import type { EventName, EventPayload, JobState } from '../../../shared/contract';
import type { JobJournal } from './journal';
import type { JobRunner } from './runner';

const LOOK_EVERY_MS = 1_000;

export interface JobsElsewhere {
  /** A state this engine announced itself (its own runner's), so it is not announced again. */
  seen(id: string, state: JobState): void;
  stop(): void;
}

export function followJobsElsewhere(deps: {
  journal: JobJournal;
  runner: JobRunner;
  emit: <E extends EventName>(name: E, payload: EventPayload<E>) => void;
  everyMs?: number;
}): JobsElsewhere {
  const { journal, runner, emit } = deps;
  const known = new Map<string, { state: JobState; updatedAt?: string }>();
  let version = journal.dataVersion();
  let since = new Date().toISOString();

  const look = () => {
    const now = journal.dataVersion();
    if (now === version) return;
    version = now;
    // `>=`: another process may write twice in one millisecond; rows already seen at that instant are skipped below.
    for (const row of journal.changedSince(since)) {
      if (row.updated_at > since) since = row.updated_at;
      const last = known.get(row.id);
      if (last?.updatedAt === row.updated_at || runner.isActive(row.id)) continue;
      known.set(row.id, { state: row.state, updatedAt: row.updated_at });
      if (last?.state !== row.state)
        emit('jobs.changed', { id: row.id, state: row.state, kind: row.kind, profileId: row.profile_id });
      emit('jobs.progress', { id: row.id, state: row.state, progress: runner.present(row.id).progress });
    }
  };
  const timer = setInterval(() => {
    try {
      look();
    } catch {
      // The database is closing; the next engine looks again.
    }
  }, deps.everyMs ?? LOOK_EVERY_MS);
  timer.unref();

  return {
    seen: (id, state) => known.set(id, { ...known.get(id), state }),
    stop: () => clearInterval(timer),
  };
}
