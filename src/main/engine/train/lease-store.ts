/**
 * One process runs a training job at a time: the app and a `mentor-admin jobs resume` on the same data folder must
 * not send the same files side by side. A run holds a lease row with a heartbeat; a lease of a dead process (same
 * host, pid gone — e.g. after kill -9) or with a stale heartbeat is taken over.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { JobNeedsAttention } from '../jobs';
import type { Db } from '../store';

const HEARTBEAT_MS = 10_000;
const STALE_MS = 45_000;

interface LeaseRow {
  job_id: string;
  owner: string;
  host: string;
  pid: number;
  heartbeat_at: number;
}

export interface Lease {
  release(): void;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export class JobLeases {
  private readonly host = hostname();

  constructor(private readonly db: Db) {}

  acquire(jobId: string): Lease {
    const owner = randomUUID();
    this.db
      .transaction(() => {
        const row = this.db.prepare('SELECT * FROM train_job_leases WHERE job_id = ?').get(jobId) as
          LeaseRow | undefined;
        if (row && this.alive(row)) {
          throw new JobNeedsAttention(
            `This job is running in another Mentor Admin process (pid ${row.pid}${row.host === this.host ? '' : ` on ${row.host}`}); it goes on there`,
          );
        }
        this.db
          .prepare(
            `INSERT INTO train_job_leases (job_id, owner, host, pid, heartbeat_at) VALUES (?, ?, ?, ?, ?)
             ON CONFLICT (job_id) DO UPDATE SET owner = excluded.owner, host = excluded.host, pid = excluded.pid,
               heartbeat_at = excluded.heartbeat_at`,
          )
          .run(jobId, owner, this.host, process.pid, Date.now());
      })
      .immediate();
    const beat = setInterval(() => {
      try {
        this.db
          .prepare('UPDATE train_job_leases SET heartbeat_at = ? WHERE job_id = ? AND owner = ?')
          .run(Date.now(), jobId, owner);
      } catch {
        // The database is closing; the lease goes stale by itself.
      }
    }, HEARTBEAT_MS);
    beat.unref();
    return {
      release: () => {
        clearInterval(beat);
        try {
          this.db.prepare('DELETE FROM train_job_leases WHERE job_id = ? AND owner = ?').run(jobId, owner);
        } catch {
          // As above.
        }
      },
    };
  }

  private alive(row: LeaseRow): boolean {
    if (Date.now() - row.heartbeat_at > STALE_MS) return false;
    return row.host !== this.host || processAlive(row.pid);
  }
}
