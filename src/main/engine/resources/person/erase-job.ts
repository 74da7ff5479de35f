/**
 * The `person-erase` job: clears a person's chat history, memory, profile and edX memory, then takes them off the
 * tenant — one journal item per step, in that order, every call naming the person the job was started for (its
 * params), never anyone else. Each step is safe to repeat: resumed after a kill, a step that had begun runs again and
 * clears what is left (a person already removed counts as removed). Before the person goes, their access is read
 * again: one who administers the tenant's access is refused with that reason. The report is signed off at the end.
 */
import { z } from 'zod';
import { ERASE_STEPS, type EraseStep } from '../../../../shared/contract';
import { JobFailed, type JobContext, type JobKindRunner } from '../../jobs';
import type { ResourceServices } from '../handlers';
import type { ErasureStore } from './erasure-store';
import { adminRefusal } from './people';
import { PersonPlatform } from './platform';

export const EraseParams = z.object({
  profileId: z.string(),
  org: z.string(),
  by: z.string(),
  person: z.object({ userId: z.string(), username: z.string(), email: z.string().nullable() }),
});
export type EraseParams = z.infer<typeof EraseParams>;

/** Runs one step; `found` records what it found before clearing anything (kept across a kill). */
async function runStep(
  step: EraseStep,
  platform: PersonPlatform,
  services: ResourceServices,
  params: EraseParams,
  found: (count: number) => void,
): Promise<number> {
  switch (step) {
    case 'chat-history': {
      const count = await platform.conversationCount();
      found(count);
      await platform.clearChatHistory();
      return count;
    }
    case 'memory': {
      const memories = await platform.memories();
      const count = memories.reduce((sum, m) => sum + m.entries.length, 0);
      found(count);
      const categories = [...new Set(memories.map((m) => m.category ?? m.name).filter((c): c is string => !!c))];
      for (const category of categories.sort()) await platform.deleteMemoryCategory(category);
      // Emptied, a memory record would still name its mentor and category under the person: it goes too.
      for (const memory of memories) {
        const id = memory.unique_id ?? memory.name;
        if (id) await platform.deleteMemory(id);
      }
      return count;
    }
    case 'profile-memory': {
      const entries = await platform.profileMemory();
      found(entries.length);
      for (const entry of entries) await platform.deleteProfileMemory(entry.tag);
      return entries.length;
    }
    case 'edx-memory': {
      const records = await platform.edxMemory();
      found(records.length);
      for (const record of records) await platform.deleteEdxMemory(record.id);
      return records.length;
    }
    case 'user': {
      const refusal = await adminRefusal(services, params.profileId, params.person);
      if (refusal) throw new JobFailed(refusal);
      return (await platform.removeUser()) ? 1 : 0;
    }
  }
}

export function personEraseKind(
  services: ResourceServices,
  reports: ErasureStore,
  /** The person left the tenant: the app forgets their cached row. */
  removed: (profileId: string, userId: string) => void,
): JobKindRunner {
  return {
    kind: 'person-erase',
    async run(ctx: JobContext) {
      const parsed = EraseParams.safeParse(ctx.params);
      if (!parsed.success)
        throw new JobFailed('This erasure was written by another version of the app; start it again');
      const params = parsed.data;
      const { journal, job } = ctx;
      const platform = new PersonPlatform(
        await ctx.client(),
        { org: params.org, username: params.by },
        params.profileId,
        params.person,
        services,
        ctx.signal,
      );
      for (const step of ERASE_STEPS) {
        const item = journal.itemByKey(job.id, step)!;
        if (item.state === 'done') continue;
        ctx.progress(`Erasing: ${step}`);
        journal.updateItem(item.id, { state: 'active', attempt: true });
        // A resumed step finds only what is left: the first run's count, once recorded, stands.
        const before = (JSON.parse(item.data) as { found?: number }).found;
        const found = (count: number) => {
          if (before === undefined) journal.updateItem(item.id, { data: { found: count } });
        };
        const count = await runStep(step, platform, services, params, found);
        const erased = Math.max(before ?? 0, count);
        journal.transaction(() => {
          journal.updateItem(item.id, { state: 'done', error: null, data: { erased } });
          reports.erased(job.id, step, erased);
        });
      }
      removed(params.profileId, params.person.userId);
      reports.finish(job.id, 'erased');
    },
    finished(finishedJob) {
      if (finishedJob.state === 'failed') reports.finish(finishedJob.id, 'failed');
    },
  };
}
