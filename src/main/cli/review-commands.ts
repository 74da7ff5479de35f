import { REVIEW_SOURCES, type ReviewFilter, type ReviewItem, type ReviewSource } from '../../shared/contract';
import type { Command } from './command';
import { commandArgs } from './command';
import { UsageError } from './io';
import { profileIdOf } from './profile-commands';

export const REVIEW_HELP = `Review queue (moderation and safety logs, and conversations learners rated down in the last 30 days; read
from a local cache each command brings up to date first):
  review list [--source moderation|safety|feedback|'Moderation System'|'Safety System'|'Negative feedback']
              [--mentor ID] [--learner NAME] [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--state open|reviewed|all]
              [--search TEXT] [--limit N] [--cached]
      Open items by default, newest first; --limit 0 lists every one; --cached reads the cache without asking
  review mark ID… [--undo]   mark items reviewed on this machine (by the tenant connection's user, now);
                             --undo opens them again. IDs look like moderation:12, safety:7 or feedback:SESSION`;

const PAGE = 1000;
const printable = (text: string) => text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, ' ');

/** Short names of the sources: each source's first word, and `feedback`. */
const SOURCE_NAMES: Record<string, ReviewSource> = {
  ...Object.fromEntries(REVIEW_SOURCES.map((s) => [s.split(' ')[0]!.toLowerCase(), s])),
  feedback: 'Negative feedback',
};
/** An item id: a log's kind and integer id, or `feedback:` and the rated conversation's session id. */
const ITEM_ID = /^((moderation|safety):\d{1,15}|feedback:[\w-]{1,100})$/;

function sourceOf(raw: string): ReviewSource {
  const lower = raw.toLowerCase();
  const found = REVIEW_SOURCES.find((s) => s.toLowerCase() === lower) ?? SOURCE_NAMES[lower];
  if (!found) {
    throw new UsageError(`--source must be moderation, safety or feedback (or '${REVIEW_SOURCES.join("', '")}')`);
  }
  return found;
}

const line = (i: ReviewItem) =>
  printable(
    `${i.id}\t${i.createdAt.slice(0, 16).replace('T', ' ')}\t${i.source}\t${i.learner}\t${i.mentorName ?? i.mentorId}\t${i.reason}\t${i.prompt.slice(0, 80)}${i.reviewedBy ? `\treviewed by ${i.reviewedBy}` : ''}`,
  );

export const runReviewCommand: Command = async (engine, args, out, io, globals) => {
  const [sub, ...rest] = args;
  const profileId = await profileIdOf(engine, globals);
  const tenant = profileId ? { profileId } : {};
  switch (sub) {
    case 'list': {
      const { values, positionals } = commandArgs(rest, {
        source: { type: 'string', multiple: true },
        mentor: { type: 'string' },
        learner: { type: 'string' },
        from: { type: 'string' },
        to: { type: 'string' },
        state: { type: 'string' },
        search: { type: 'string' },
        limit: { type: 'string' },
        cached: { type: 'boolean' },
      });
      if (positionals.length) throw new UsageError('review list takes no positional arguments');
      if (values.limit !== undefined && !/^\d+$/.test(values.limit)) throw new UsageError('--limit must be a number');
      if (values.mentor !== undefined && !/^\d+$/.test(values.mentor)) {
        throw new UsageError('--mentor takes the mentor id the logs carry (a number)');
      }
      if (values.state && !['open', 'reviewed', 'all'].includes(values.state)) {
        throw new UsageError('--state must be open, reviewed or all');
      }
      for (const day of [values.from, values.to]) {
        if (day !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(day)) throw new UsageError('Dates are YYYY-MM-DD');
      }
      const filter: ReviewFilter = {
        state: (values.state as 'open' | 'reviewed' | 'all' | undefined) ?? 'open',
        ...(values.source?.length ? { sources: [...new Set(values.source.map(sourceOf))] } : {}),
        ...(values.mentor ? { mentor: Number(values.mentor) } : {}),
        ...(values.learner ? { learner: values.learner } : {}),
        ...(values.from ? { from: values.from } : {}),
        ...(values.to ? { to: values.to } : {}),
        ...(values.search?.trim() ? { search: values.search } : {}),
      };
      if (!values.cached) {
        const sync = await engine.invoke('review.sync', tenant);
        if (sync.error) {
          if (!sync.syncedAt) throw new Error(sync.error);
          io.stderr.write(`mentor-admin: ${sync.error} (cache as of ${sync.syncedAt})\n`);
        }
      }
      const limit = values.limit === undefined ? 50 : Number(values.limit);
      let offset = 0;
      let total = 0;
      for (;;) {
        const batch = limit === 0 ? PAGE : Math.min(PAGE, limit - offset);
        if (batch <= 0) break;
        const page = await engine.invoke('review.list', { ...tenant, filter, offset, limit: batch });
        total = page.total;
        for (const item of page.items) out.record(item, line(item));
        offset += page.items.length;
        if (page.items.length < batch) break;
      }
      out.text(`${offset} of ${total} item${total === 1 ? '' : 's'}`);
      return 0;
    }
    case 'mark': {
      const { values, positionals } = commandArgs(rest, { undo: { type: 'boolean' } });
      if (!positionals.length) {
        throw new UsageError('review mark needs one or more item IDs (moderation:12, safety:7, feedback:SESSION)');
      }
      const bad = positionals.filter((id) => !ITEM_ID.test(id));
      if (bad.length) {
        throw new UsageError(
          `Not review item IDs: ${bad.join(', ')} (they look like moderation:12, safety:7 or feedback:SESSION)`,
        );
      }
      const result = await engine.invoke('review.mark', { ...tenant, ids: positionals, reviewed: !values.undo });
      out.record(result, `${values.undo ? 'Opened again' : 'Marked reviewed'}: ${result.marked}`);
      if (result.unknown.length) {
        io.stderr.write(
          `mentor-admin: not in the review queue (refresh with 'review list'): ${result.unknown.join(', ')}\n`,
        );
        return 1;
      }
      return 0;
    }
    default:
      throw new UsageError(`review needs a subcommand: list or mark\n${REVIEW_HELP}`);
  }
};
