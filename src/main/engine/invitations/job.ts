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
import type { InviteTarget, OutcomeCounts } from '../../../shared/contract';
import { JobFailed, type JobContext, type JobKindRunner } from '../jobs';
import { ApiError, isTransient, wasNotTaken, type PlatformClient } from '../platform';
import { isLive, readInvitations, sendBulk, TARGET_FIELD, targetKey, targetQuery, type BulkAnswer } from './api';
import { pool } from './checks';
import type { InviteLedger } from './ledger-store';

export const OUTCOMES = [
  'invited',
  'already_invited',
  'already_member',
  'invalid',
  'duplicate',
  'dropped',
  'failed',
] as const;
export type Outcome = (typeof OUTCOMES)[number];

export interface InviteJobParams {
  importId: string;
  fileName: string;
  fileSha256: string | null;
  org: string;
  /**
   * The platform's `source` of each invitation: the batch's tag (`batchSource`), so its invitations can be found
   * again. Jobs from before batches were tagged carry the inviting username.
   */
  source: string;
  /** Rows of the file (for the list of batches). */
  rows?: number;
  target: InviteTarget;
  redirectTo: string | null;
  active: boolean;
  /** Invalid rows were left out on purpose: they do not make the job a failure (see Job.skipInvalid). */
  skipInvalid?: boolean;
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

/** Job counts, kept in step with the items in the same transactions (the review's vocabulary: `IMPORT_OUTCOMES`). */
export type InviteCounts = OutcomeCounts;

export const COUNT_OF: Record<Outcome, keyof InviteCounts> = {
  invited: 'invited',
  already_invited: 'alreadyInvited',
  already_member: 'alreadyMember',
  invalid: 'invalid',
  duplicate: 'duplicate',
  dropped: 'dropped',
  failed: 'failed',
};

interface PendingItem {
  id: number;
  phase: string;
  emailKey: string | null;
  /** The row as the platform gets it (without target and source), as JSON text (see requestRow). */
  payload: string;
}

const SENDING = 'sending';
const FAST_MS = 1_000;
const SLOW_MS = 10_000;
/** In-job retries of a chunk that got no usable answer; then the runner waits and comes back by itself. */
const MAX_TRANSPORT_FAILURES = 5;
/** Chunks sent at once by one job. */
const IN_FLIGHT = 2;

/** Chunks grow while the platform answers fast and shrink when it is slow. */
export function nextChunkSize(size: number, elapsedMs: number, max: number): number {
  if (elapsedMs < FAST_MS && size < max) return Math.min(max, Math.ceil(size * 1.5));
  if (elapsedMs > SLOW_MS) return Math.max(10, Math.floor(size / 2));
  return size;
}

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
  duplicate_in_request: { outcome: 'duplicate', message: 'The same address appears earlier in the file' },
};

/** What a page of pending items reads from each item's data: SQLite hands the fields over as JSON text. */
const REQUEST_DETAIL = ['emailKey', 'email', 'to', 'fields'] as const;

/**
 * The row as the platform gets it, as JSON text: the item's fields (already JSON) with the address spliced in, so a
 * million rows are shaped without a JSON.parse/stringify round trip each.
 */
export function requestRow(detail: { email: unknown; to: unknown; fields: unknown }): string {
  const email = JSON.stringify(detail.to ?? detail.email ?? null);
  const fields = typeof detail.fields === 'string' ? detail.fields : '{}';
  return fields === '{}' ? `{"email":${email}}` : `${fields.slice(0, -1)},"email":${email}}`;
}

export function inviteKind(deps: {
  ledger: InviteLedger;
  onFinished?: (profileId: string | null) => void;
}): JobKindRunner {
  const { ledger } = deps;
  const idsOf = (items: readonly PendingItem[]) => items.map((item) => item.id);

  return {
    kind: 'invite',
    bulkWrites: true,
    finished: (job) => deps.onFinished?.(job.profileId),
    async run(ctx: JobContext) {
      const params = ctx.params as InviteJobParams;
      const jobId = ctx.job.id;
      const profileId = ctx.job.profile_id ?? '';
      const scope = targetKey(params.target, params.org);
      const { journal } = ctx;
      const client = await ctx.client();
      let size = params.chunkSize;
      let transportFailures = 0;

      /** Records outcomes and counts in one transaction: a kill -9 never separates them. */
      const settle = (results: { item: PendingItem; outcome: Outcome; message?: string }[], chunk?: number) => {
        const at = new Date().toISOString();
        const counts: InviteCounts = {};
        const invited = results.filter((result) => result.outcome === 'invited').map((result) => result.item);
        // Rows that end alike (the same outcome and message) are written by one statement.
        const alike = new Map<string, { outcome: Outcome; message: string | null; ids: number[] }>();
        for (const { item, outcome, message } of results) {
          const key = COUNT_OF[outcome];
          counts[key] = (counts[key] ?? 0) + 1;
          if (outcome === 'invited') continue;
          const same = `${outcome}\n${message ?? ''}`;
          if (!alike.has(same)) alike.set(same, { outcome, message: message ?? null, ids: [] });
          alike.get(same)!.ids.push(item.id);
        }
        journal.transaction(() => {
          if (invited.length) {
            journal.updateItems(idsOf(invited), { state: 'done', phase: 'invited', error: null });
            const keys = invited.map((item) => item.emailKey).filter((key): key is string => !!key);
            ledger.recordInvited(profileId, scope, jobId, at, keys);
          }
          for (const { outcome, message, ids } of alike.values()) {
            journal.updateItems(ids, {
              state: outcome === 'failed' ? 'failed' : 'skipped',
              phase: outcome,
              error: outcome === 'failed' ? (message ?? 'Failed') : null,
              data: { message },
            });
          }
          journal.addCounts(jobId, counts);
          if (chunk !== undefined) ledger.settled(jobId, chunk);
        });
      };

      /**
       * Chunks this run posts are journaled as one row each (`invite_inflight`) rather than by touching every item.
       * What an interrupted run left there is uncertain: those rows are marked `sending`, to be asked about first.
       */
      const leftOver = ledger.inflight(jobId);
      if (leftOver.length) {
        journal.transaction(() => {
          journal.updateItems(leftOver, { state: 'pending', phase: SENDING });
          ledger.settledAll(jobId);
        });
      }
      let chunks = 0;
      let slowDowns = 0;
      const sending = new Set<number>();

      /** Sends one chunk and records its answer; throws only what ends this run (401, 403, abort, lasting trouble). */
      const sendChunk = async (candidates: PendingItem[], chunk: number): Promise<void> => {
        const started = Date.now();
        try {
          const bulk = await ctx.limiter.run(
            () => sendBulk(client, params.target, bulkBody(params, candidates), { signal: ctx.signal }),
            ctx.signal,
          );
          settle(outcomesOf(bulk, candidates, ctx.log), chunk);
          transportFailures = 0;
          slowDowns = 0;
          size = nextChunkSize(size, Date.now() - started, params.maxChunk);
          ctx.progress();
        } catch (error) {
          if (error instanceof ApiError && error.status === 413) {
            // Refused before it was read: nothing was applied.
            if (candidates.length === 1) {
              settle(
                [{ item: candidates[0]!, outcome: 'failed', message: 'The platform refused the row as too large' }],
                chunk,
              );
            } else ledger.settled(jobId, chunk);
            size = Math.max(1, Math.floor(Math.min(size, candidates.length) / 2));
            return;
          }
          if (wasNotTaken(error) && !ctx.signal.aborted) {
            // Still "too many requests" after the client's own retries: nothing was applied; wait as asked, then go on.
            ledger.settled(jobId, chunk);
            slowDowns++;
            ctx.progress('The platform asks to slow down; waiting');
            await pause(
              Math.max(error.retryAfterMs ?? 0, Math.min(60_000, 1_000 * 2 ** Math.min(slowDowns, 6))),
              ctx.signal,
            );
            return;
          }
          if (mayHaveBeenApplied(error) && !ctx.signal.aborted) {
            // The chunk may or may not have been applied: its rows are `sending`, checked before they are sent again.
            journal.transaction(() => {
              journal.updateItems(idsOf(candidates), { state: 'pending', phase: SENDING });
              ledger.settled(jobId, chunk);
            });
            if (!(error instanceof ApiError)) size = Math.max(1, Math.floor(Math.min(size, candidates.length) / 2));
            if (++transportFailures >= MAX_TRANSPORT_FAILURES) throw error;
            ctx.progress(`The platform did not answer (${error.message}); trying again`);
            await pause(Math.min(5_000, 250 * 2 ** transportFailures), ctx.signal);
            return;
          }
          if (error instanceof ApiError && [400, 404, 409, 422].includes(error.status)) {
            // The platform refused the whole chunk: say why on each row, and go on with the others.
            const why = error.detail ?? error.message;
            settle(
              candidates.map((item) => ({ item, outcome: 'failed' as const, message: why })),
              chunk,
            );
            return;
          }
          if (error instanceof ApiError && error.status === 403) {
            throw new JobFailed('The platform refused: this key is not allowed to invite people (403 Forbidden)');
          }
          // 401 pauses the job; lasting 5xx and network trouble make it wait and come back; rows stay `sending`.
          throw error;
        }
      };

      // Two chunks in flight: one is recorded while the platform works on the next.
      const inFlight = new Set<Promise<void>>();
      let fatal: unknown = null;
      const launch = (candidates: PendingItem[]) => {
        const chunk = ++chunks;
        // Journaled before the request leaves: a crash from here on leaves the chunk to be checked.
        ledger.sending(jobId, chunk, idsOf(candidates));
        for (const item of candidates) sending.add(item.id);
        const sent: Promise<void> = sendChunk(candidates, chunk)
          .catch((error: unknown) => {
            fatal ??= error;
          })
          .finally(() => {
            for (const item of candidates) sending.delete(item.id);
            inFlight.delete(sent);
          });
        inFlight.add(sent);
      };

      ctx.progress('Sending invitations');
      while (fatal === null) {
        if (ctx.signal.aborted) break;
        const page: PendingItem[] = journal
          .pendingPage(jobId, { excluding: [...sending], limit: size, detail: REQUEST_DETAIL })
          .map((row) => ({
            id: row.id,
            phase: row.phase,
            emailKey: row.emailKey as string | null,
            payload: requestRow(row),
          }));
        if (!page.length) {
          // Nothing pending now; a chunk in flight may still hand rows back (413, no answer).
          if (!inFlight.size) break;
          await Promise.race(inFlight);
          continue;
        }

        // Invited before (an earlier run, or this job before a crash): never again.
        const remembered: { item: PendingItem; outcome: Outcome; message?: string }[] = [];
        let candidates: PendingItem[] = [];
        const keys = page.map((item) => item.emailKey).filter((key): key is string => !!key);
        const sent = ledger.sentBefore(profileId, scope, keys);
        for (const item of page) {
          const key = item.emailKey ?? '';
          if (!sent.has(key)) candidates.push(item);
          else if (sent.get(key) === jobId) remembered.push({ item, outcome: 'invited' });
          else remembered.push({ item, outcome: 'already_invited', message: 'Invited earlier by this app' });
        }
        if (remembered.length) settle(remembered);

        // Sent, but the answer was never recorded: ask the platform before sending again.
        const uncertain = candidates.filter((item) => item.phase === SENDING);
        if (uncertain.length) {
          ctx.progress('Checking a chunk whose answer was lost');
          let invitedNow: Set<string>;
          try {
            invitedNow = await invitedAmong(client, params, uncertain, ctx.signal);
          } catch (error) {
            fatal ??= error;
            break;
          }
          const found = uncertain.filter((item) => invitedNow.has(item.emailKey ?? ''));
          if (found.length) settle(found.map((item) => ({ item, outcome: 'invited' as const })));
          candidates = candidates.filter((item) => !found.includes(item));
          ctx.progress('Sending invitations');
        }
        if (!candidates.length) continue;

        launch(candidates);
        if (inFlight.size >= IN_FLIGHT) await Promise.race(inFlight);
      }
      await Promise.all(inFlight);
      if (fatal !== null) throw fatal;
      ctx.signal.throwIfAborted();
      ctx.progress('Done');
    },
  };
}

/**
 * No answer, or a server error: the request may or may not have been applied (a 408 or 429 refused it unread, see
 * `wasNotTaken`).
 */
function mayHaveBeenApplied(error: unknown): error is Error {
  return isTransient(error) && !wasNotTaken(error);
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

/**
 * Reads are safe to repeat: a check whose answers still say "not now" after the client's retries is tried again a
 * few times before the job gives up (and waits for the tenant).
 */
async function retried<T>(read: () => Promise<T>, signal: AbortSignal, attempts = 4): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await read();
    } catch (error) {
      const again = error instanceof ApiError && isTransient(error);
      if (attempt >= attempts || !again || signal.aborted) throw error;
      await pause(100 * 2 ** attempt, signal);
    }
  }
}

/** The request body, as text: the job's fields once, spliced into each row's JSON. */
export function bulkBody(params: InviteJobParams, items: readonly PendingItem[]): string {
  const target = params.target.kind === 'platform' ? params.org : params.target.id;
  const common = [
    `${JSON.stringify(TARGET_FIELD[params.target.kind])}:${JSON.stringify(target)}`,
    `"source":${JSON.stringify(params.source)}`,
    `"active":${params.active}`,
    ...(params.redirectTo ? [`"redirect_to":${JSON.stringify(params.redirectTo)}`] : []),
  ].join(',');
  // Each payload is a JSON object: `{"email":…}` becomes `{<common>,"email":…}`.
  const rows = items.map((item) => `{${common},${item.payload.slice(1)}`);
  return `{"platform_key":${JSON.stringify(params.org)},"invitation_data":[${rows.join(',')}]}`;
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
  const emails = [...new Set(items.map((item) => item.emailKey).filter((e): e is string => !!e))];
  await pool(emails, 8, async (email) => {
    const query = { ...targetQuery(params.target, params.org), email, active: true, page: 1, page_size: 10 };
    const page = await retried(() => readInvitations(client, params.target, query, { signal }), signal);
    if (page.results.some((invitation) => invitation.email?.toLowerCase() === email && isLive(invitation))) {
      found.add(email);
    }
  });
  return found;
}
