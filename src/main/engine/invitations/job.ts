/**
 * The `invite` job: posts an import's rows to `…/bulk/` in chunks and records each row's answer. The journal (one
 * item per input row) is written before anything is sent. Idempotent per (email, target):
 * - every address invited is recorded per tenant and target (`invite_sent`) in the same transaction as its item,
 *   so a re-run or a resume skips it;
 * - a chunk is marked `sending` before its request; after a crash (or a timeout, or a dropped connection) between
 *   sending a chunk and recording its answer, the platform is asked which of its addresses are invited now, and
 *   only the others are sent again.
 * Chunks start at 100 rows and adapt: smaller after a 413 or a timeout, larger while answers come fast.
 */
import type { InviteTarget } from '../../../shared/contract';
import type { JobContext, JobKindRunner } from '../jobs/runner';
import { JobFailed } from '../jobs/runner';
import { ApiError, NetworkError, TimeoutError, type PlatformClient } from '../platform';
import type { Db } from '../store/database';
import { BulkAnswer, bulkPath, invitationsPath, isLive, InvitationPage, parseAnswer, TARGET_FIELD, targetKey, targetQuery } from './api';
import { pool } from './checks';

export const OUTCOMES = [
  'invited',
  'already_invited',
  'already_member',
  'invalid',
  'dropped',
  'failed',
] as const;
export type Outcome = (typeof OUTCOMES)[number];

export interface InviteJobParams {
  importId: string;
  fileName: string;
  fileSha256: string | null;
  org: string;
  /** The inviting username: the platform's `source` of each invitation. */
  source: string;
  target: InviteTarget;
  redirectTo: string | null;
  active: boolean;
  chunkSize: number;
  maxChunk: number;
}

export type InviteItemData = {
  line: number;
  /** As the file has it. */
  email: string;
  /** The ASCII form sent to the platform, when it differs (an international domain). */
  to?: string;
  emailKey: string | null;
  /** Non-empty optional fields (names, company, user group and its owner). */
  fields: Record<string, string>;
  message?: string;
};

/** Job counts, kept in step with the items in the same transactions. */
export type InviteCounts = Partial<Record<'invited' | 'alreadyInvited' | 'alreadyMember' | 'invalid' | 'dropped' | 'failed', number>>;

export const COUNT_OF: Record<Outcome, keyof InviteCounts> = {
  invited: 'invited',
  already_invited: 'alreadyInvited',
  already_member: 'alreadyMember',
  invalid: 'invalid',
  dropped: 'dropped',
  failed: 'failed',
};

interface PendingItem {
  id: number;
  phase: string;
  data: InviteItemData;
}

const SENDING = 'sending';
const FAST_MS = 1_000;
const SLOW_MS = 10_000;
/** In-job retries of a chunk that got no usable answer; then the runner waits and comes back by itself. */
const MAX_TRANSPORT_FAILURES = 5;

/** `code:index:email` as the platform reports a refused row. */
export function parseErrorCode(text: string): { code: string; index: number; who: string } | null {
  const match = /^([^:]+):(\d+):(.*)$/s.exec(text);
  return match ? { code: match[1]!, index: Number(match[2]), who: match[3]! } : null;
}

const REFUSALS: Record<string, { outcome: Outcome; message: string }> = {
  already_invited: { outcome: 'already_invited', message: 'Already invited' },
  already_member: { outcome: 'already_member', message: 'Already a member' },
  invalid_email: { outcome: 'invalid', message: 'The platform says the address is not valid' },
  missing_email: { outcome: 'invalid', message: 'No address' },
  duplicate_in_request: { outcome: 'invalid', message: 'The same address appears earlier in the file' },
};

export function inviteKind(deps: { db: Db; onFinished?: (profileId: string | null) => void }): JobKindRunner {
  const { db } = deps;
  const pendingPage = db.prepare(
    `SELECT id, phase, data FROM job_items WHERE job_id = ? AND state = 'pending' ORDER BY id LIMIT ?`,
  );
  const setItem = db.prepare(
    `UPDATE job_items SET state = ?, phase = ?, error = ?, data = json_set(data, '$.message', ?),
       attempts = attempts + ?, updated_at = ? WHERE id = ?`,
  );
  const sentLookup = db.prepare(
    'SELECT job_id FROM invite_sent WHERE profile_id = ? AND target = ? AND email_key = ?',
  );
  const recordSent = db.prepare(
    `INSERT INTO invite_sent (profile_id, target, email_key, job_id, at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (profile_id, target, email_key) DO NOTHING`,
  );

  return {
    kind: 'invite',
    finished: (job) => deps.onFinished?.(job.profileId),
    async run(ctx: JobContext) {
      const params = ctx.params as InviteJobParams;
      const jobId = ctx.job.id;
      const profileId = ctx.job.profile_id ?? '';
      const scope = targetKey(params.target, params.org);
      const client = await ctx.client();
      let size = params.chunkSize;
      let transportFailures = 0;

      /** Records outcomes and counts in one transaction: a kill -9 never separates them. */
      const settle = (results: { item: PendingItem; outcome: Outcome; message?: string }[]) => {
        const at = new Date().toISOString();
        const counts: InviteCounts = {};
        db.transaction(() => {
          for (const { item, outcome, message } of results) {
            const state = outcome === 'invited' ? 'done' : outcome === 'failed' ? 'failed' : 'skipped';
            setItem.run(state, outcome, outcome === 'failed' ? (message ?? 'Failed') : null, message ?? null, 0, at, item.id);
            if (outcome === 'invited' && item.data.emailKey) recordSent.run(profileId, scope, item.data.emailKey, jobId, at);
            const key = COUNT_OF[outcome];
            counts[key] = (counts[key] ?? 0) + 1;
          }
          ctx.store.addCounts(jobId, counts);
        })();
      };

      ctx.progress('Sending invitations');
      for (;;) {
        ctx.signal.throwIfAborted();
        const page = (pendingPage.all(jobId, size) as { id: number; phase: string; data: string }[]).map((row) => ({
          id: row.id,
          phase: row.phase,
          data: JSON.parse(row.data) as InviteItemData,
        }));
        if (!page.length) break;

        // Invited before (an earlier run, or this job before a crash): never again.
        const remembered: { item: PendingItem; outcome: Outcome; message?: string }[] = [];
        let candidates: PendingItem[] = [];
        for (const item of page) {
          const sent = item.data.emailKey
            ? (sentLookup.get(profileId, scope, item.data.emailKey) as { job_id: string | null } | undefined)
            : undefined;
          if (!sent) candidates.push(item);
          else if (sent.job_id === jobId) remembered.push({ item, outcome: 'invited' });
          else remembered.push({ item, outcome: 'already_invited', message: 'Invited earlier by this app' });
        }
        if (remembered.length) settle(remembered);

        // Sent, but the answer was never recorded: ask the platform before sending again.
        const uncertain = candidates.filter((item) => item.phase === SENDING);
        if (uncertain.length) {
          ctx.progress('Checking a chunk whose answer was lost');
          const invitedNow = await invitedAmong(client, params, uncertain, ctx.signal);
          const found = uncertain.filter((item) => invitedNow.has(item.data.emailKey ?? ''));
          if (found.length) settle(found.map((item) => ({ item, outcome: 'invited' as const })));
          candidates = candidates.filter((item) => !found.includes(item));
          ctx.progress('Sending invitations');
        }
        if (!candidates.length) continue;

        markSending(db, candidates);
        const started = Date.now();
        try {
          const answer = await ctx.limiter.run(
            () =>
              client.request(bulkPath(params.target), {
                method: 'POST',
                json: bulkBody(params, candidates),
                signal: ctx.signal,
              }),
            ctx.signal,
          );
          const bulk = parseAnswer(BulkAnswer, answer, 'the bulk invitation');
          settle(outcomesOf(bulk, candidates, ctx.log));
          transportFailures = 0;
          const elapsed = Date.now() - started;
          if (elapsed < FAST_MS && size < params.maxChunk) size = Math.min(params.maxChunk, Math.ceil(size * 1.5));
          else if (elapsed > SLOW_MS) size = Math.max(10, Math.floor(size / 2));
        } catch (error) {
          if (error instanceof ApiError && error.status === 413) {
            // Refused before it was read: nothing was applied.
            if (candidates.length === 1) {
              settle([{ item: candidates[0]!, outcome: 'failed', message: 'The platform refused the row as too large' }]);
            } else backToPending(db, candidates, '');
            size = Math.max(1, Math.floor(Math.min(size, candidates.length) / 2));
            continue;
          }
          if (isTransient(error) && !ctx.signal.aborted) {
            // The chunk may or may not have been applied: it stays `sending` and is checked before it is sent again.
            backToPending(db, candidates, SENDING);
            if (!(error instanceof ApiError)) size = Math.max(1, Math.floor(Math.min(size, candidates.length) / 2));
            if (++transportFailures >= MAX_TRANSPORT_FAILURES) throw error;
            ctx.progress(`The platform did not answer (${error.message}); trying again`);
            await pause(Math.min(5_000, 250 * 2 ** transportFailures), ctx.signal);
            continue;
          }
          if (error instanceof ApiError && [400, 404, 409, 422].includes(error.status)) {
            // The platform refused the whole chunk: say why on each row, and go on with the others.
            const why = error.detail ?? error.message;
            settle(candidates.map((item) => ({ item, outcome: 'failed' as const, message: why })));
            continue;
          }
          if (error instanceof ApiError && error.status === 403) {
            throw new JobFailed('The platform refused: this key is not allowed to invite people (403 Forbidden)');
          }
          // 401 pauses the job, 5xx and network trouble make it wait and come back; rows stay `sending`.
          throw error;
        }
        ctx.progress();
      }
      ctx.progress('Done');
    },
  };
}

/** No answer, or a server error: the request may or may not have been applied. */
function isTransient(error: unknown): error is Error {
  return (
    error instanceof TimeoutError || error instanceof NetworkError || (error instanceof ApiError && error.status >= 500)
  );
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Reads are safe to repeat: a server error on a check is tried again before the job gives up. */
async function retried<T>(read: () => Promise<T>, signal: AbortSignal, attempts = 4): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await read();
    } catch (error) {
      if (attempt >= attempts || !(error instanceof ApiError && error.status >= 500) || signal.aborted) throw error;
      await pause(100 * 2 ** attempt, signal);
    }
  }
}

function markSending(db: Db, items: readonly PendingItem[]): void {
  const update = db.prepare(
    `UPDATE job_items SET state = 'active', phase = 'sending', attempts = attempts + 1, updated_at = ? WHERE id = ?`,
  );
  const at = new Date().toISOString();
  db.transaction(() => {
    for (const item of items) update.run(at, item.id);
  })();
}

function backToPending(db: Db, items: readonly PendingItem[], phase: string): void {
  const update = db.prepare(`UPDATE job_items SET state = 'pending', phase = ?, updated_at = ? WHERE id = ?`);
  const at = new Date().toISOString();
  db.transaction(() => {
    for (const item of items) update.run(phase, at, item.id);
  })();
}

function bulkBody(params: InviteJobParams, items: readonly PendingItem[]) {
  const field = TARGET_FIELD[params.target.kind];
  const target = params.target.kind === 'platform' ? params.org : params.target.id;
  return {
    platform_key: params.org,
    invitation_data: items.map((item) => ({
      ...item.data.fields,
      email: item.data.to ?? item.data.email,
      [field]: target,
      source: params.source,
      active: params.active,
      ...(params.redirectTo ? { redirect_to: params.redirectTo } : {}),
    })),
  };
}

/** Every row of a chunk gets its outcome: refused rows by their `code:index:email`, the others invited. */
export function outcomesOf(
  bulk: BulkAnswer,
  items: readonly PendingItem[],
  log: (line: string) => void,
): { item: PendingItem; outcome: Outcome; message?: string }[] {
  const refused = new Map<number, string>();
  for (const text of bulk.error_codes) {
    const parsed = parseErrorCode(text);
    if (parsed && parsed.index < items.length) refused.set(parsed.index, parsed.code);
    else log(`invite: unexpected error code '${text}'`);
  }
  if (bulk.successes !== items.length - refused.size) {
    log(`invite: the platform reported ${bulk.successes} successes for ${items.length - refused.size} accepted rows`);
  }
  return items.map((item, index) => {
    const code = refused.get(index);
    if (code === undefined) return { item, outcome: 'invited' as const };
    const known = REFUSALS[code];
    return known
      ? { item, outcome: known.outcome, message: known.message }
      : { item, outcome: 'failed' as const, message: `The platform refused this row (${code})` };
  });
}

/** Which of these rows' addresses hold a live invitation to the target right now. */
async function invitedAmong(
  client: PlatformClient,
  params: InviteJobParams,
  items: readonly PendingItem[],
  signal: AbortSignal,
): Promise<Set<string>> {
  const found = new Set<string>();
  const path = invitationsPath(params.target);
  const emails = [...new Set(items.map((item) => item.data.emailKey).filter((e): e is string => !!e))];
  await pool(emails, 8, async (email) => {
    const answer = await retried(
      () =>
        client.request(path, {
          query: { ...targetQuery(params.target, params.org), email, active: true, page: 1, page_size: 10 },
          signal,
        }),
      signal,
    );
    const page = parseAnswer(InvitationPage, answer, 'the invitation list');
    if (page.results.some((invitation) => invitation.email?.toLowerCase() === email && isLive(invitation))) {
      found.add(email);
    }
  });
  return found;
}
