/**
 * Reading hostile ticket descriptions (cmark's pathological inputs and HTML parser stress, 100 KB each, the most a
 * description is read) into the safe tree, as `tickets.get` does on the engine thread:
 *   tickets_markup.pathological_max_ms   the slowest input (median CPU time of 7 reads each)
 *   tickets_markup.pathological_p50_ms   the median input
 * CPU time (process.cpuUsage), not wall time: a read is one synchronous call on one thread, and on a busy machine its
 * wall time mostly measures how long other processes held the core.
 *
 * `npm run bench -- tickets-markup`
 */
import { richText } from '../src/main/engine/tickets/markup';
import { pathologicalInputs } from './lib/pathological';
import { percentile, type BenchResult, type Log } from './lib/suite';

export const metrics = ['tickets_markup.pathological_max_ms', 'tickets_markup.pathological_p50_ms'];

export async function run(log: Log = () => {}): Promise<BenchResult[]> {
  const medians: number[] = [];
  for (const { name, input } of pathologicalInputs(100_000)) {
    const times: number[] = [];
    for (let i = 0; i < 7; i++) {
      const started = process.cpuUsage();
      richText(input);
      const used = process.cpuUsage(started);
      times.push((used.user + used.system) / 1000);
    }
    const median = percentile(times, 50);
    medians.push(median);
    log(`   ${name.padEnd(50)} ${median.toFixed(1)} ms`);
  }
  await Promise.resolve();
  const round = (ms: number) => Math.round(ms * 10) / 10;
  return [
    { name: metrics[0]!, value: round(Math.max(...medians)), unit: 'ms', goal: '<= 100' },
    { name: metrics[1]!, value: round(percentile(medians, 50)), unit: 'ms', goal: '<= 20' },
  ];
}
