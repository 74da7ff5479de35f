import { readdirSync, readFileSync } from 'node:fs';

/** Nanoseconds a process's threads have run, from Linux's /proc (its threads' schedstat: time on a CPU). */
function processCpuNs(pid: number | 'self'): number {
  let total = 0;
  for (const thread of readdirSync(`/proc/${pid}/task`)) {
    try {
      total += Number(readFileSync(`/proc/${pid}/task/${thread}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // The thread ended between the listing and the read: its time is gone with it.
    }
  }
  return total;
}

/** The process ids of this process's children (a sandbox it launched). */
function childPids(): number[] {
  return readdirSync('/proc/self/task').flatMap((thread) =>
    readFileSync(`/proc/self/task/${thread}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number),
  );
}

/**
 * CPU milliseconds spent so far by this process and the processes it started (the engine and the sandbox it talks
 * to): on a shared machine wall time mostly measures the neighbours, CPU time measures the work. Linux only.
 */
export function familyCpuMs(): number {
  const { own, children } = splitCpuMs();
  return own + children;
}

/** The same CPU milliseconds, this process's apart from its children's (where a cost lies: engine or sandbox). */
export function splitCpuMs(): { own: number; children: number } {
  let children = 0;
  for (const pid of childPids()) {
    try {
      children += processCpuNs(pid);
    } catch {
      // A child that has just exited.
    }
  }
  return { own: processCpuNs('self') / 1e6, children: children / 1e6 };
}
