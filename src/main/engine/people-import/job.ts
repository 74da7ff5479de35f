/**
 * One people-file import job, shared by every kind whose file names people (a department's or group's members,
 * enrolments, course suggestions, licence seats, badge assertions): the rows become journal items before anything is
 * sent, the tenant is read once to settle the rows that cannot be sent (unknown people or targets, "already"), a dry
 * run says what each other row would do, and the rest go through the kind's one sender in batches, each person's
 * answer settling their row. A kind declares only what differs: its columns and words, how a row's target is found,
 * what a dry run reads, and its sender.
 *
 * Resumable: before a batch is sent its rows are written in the job's params as in flight (one small write of id
 * ranges, not one per row); after it they are settled, the job's counts added and the mark removed in one
 * transaction. Every sender's call is idempotent, so a batch a killed run left in flight is sent again and does
 * nothing twice; its rows are `resumed`, which each kind words its own way ("added before the import was
 * interrupted"). Rows a run settles alike (most of a batch) are one write of id runs (the journal's settleItems).
 */
import type { Job, JobKind } from '../../../shared/contract';
import { repeatedMessage, repeatedRows } from '../../../shared/import-summary';
import type { ItemReport, JobContext, JobJournal, JobKindRunner, NewItem } from '../jobs';
import { idRuns, UNFINISHED_STATES } from '../jobs';
import { ApiError, isTransient, RequestAbortedError, type CallOptions, type PlatformClient } from '../platform';
import type { Profiles } from '../profiles';
import { userScope } from '../tenants';

/**
 * What a row came to. Kinds may store some under words of their own (`phases`: a badge is `issued`). `repeated`: the
 * row repeats an earlier one of the file (the same person and target), which alone is sent.
 */
export const OUTCOMES = [
  'added',
  'wouldAdd',
  'already',
  'repeated',
  'unknown',
  'invalid',
  'failed',
  'dropped',
] as const;
export type Outcome = (typeof OUTCOMES)[number];

/** The phase rows in flight had when runs marked them one by one (a job left so by an older version resumes them). */
export const SENDING = 'sending';
/** The params key of a batch in flight, followed by its first row's id; its value is the rows' [first, last] id runs. */
export const IN_FLIGHT = 'sending_';
/** Batches (or rows) waiting in the tenant's limiter at once: more than it lets through, never one per row. */
const WAITING = 32;

/** A row as the import pipeline read it (resources/import.ts): its line, cells by column, and whether it is sent. */
export interface PeopleRow {
  line: number;
  values: Record<string, string>;
  problems: { field: string | null; message: string }[];
  dropped: boolean;
}

/** An item's data: the row's line, its cells (the person's email or username first), and what became of it. */
export type PeopleItemData = {
  line: number;
  person: string;
  group?: string;
  /** The group's name as the tenant has it, where the row named it otherwise (by its id). */
  groupName?: string;
  message?: string;
};

/** A row of the work list: its data read once, and whether a killed run may have sent it already. */
export interface Work<D extends PeopleItemData = PeopleItemData> {
  id: number;
  phase: string;
  data: D;
  resumed: boolean;
}

export interface Settled {
  item: { id: number };
  outcome: Outcome;
  message?: string;
  /** Stored under this phase rather than the outcome's (a dry run's row past a licence's seats). */
  phase?: string;
  /** Counted under this name too (`overSeats`). */
  tally?: string;
  /** Counted under this name instead of the outcome's (a dry run's row past a licence's seats: `overSeats`). */
  counted?: string;
}

/** A row on its way to the sender, with what the kind resolved it to. */
export interface Sendable<D extends PeopleItemData, T> {
  item: Work<D>;
  target: T;
}

export interface ImportMode {
  mode: 'send' | 'dry-run';
}

/** What a kind's steps are handed: the job, its params, the tenant's client and scope. */
export interface PeopleRun<P> {
  ctx: JobContext;
  params: P;
  profileId: string;
  client: PlatformClient;
  org: string;
  username: string;
  options: CallOptions;
}

type Refusal = Omit<Settled, 'item'>;

/** The kind's sender: one request for a batch of rows (a bulk call, rows grouped by `group`), or one per row. */
export type Sender<P, D extends PeopleItemData, T> =
  | {
      batch: number;
      group?: (target: T) => string | number;
      bulk: (run: PeopleRun<P>, batch: Sendable<D, T>[]) => Promise<Settled[]>;
    }
  | { batch: number; each: (run: PeopleRun<P>, row: Sendable<D, T>) => Promise<Settled> };

export interface PeopleImport<P extends ImportMode, D extends PeopleItemData, T, R> {
  /** The job kind's name. */
  job: JobKind;
  /** The item data's cells, as the report's columns show them after `row`. */
  columns: readonly ('person' | 'group')[];
  report: { header: string[]; words: Record<string, string> };
  /** Outcomes a kind stores under a word of its own (counts included). */
  phases?: Partial<Record<Outcome, string>>;
  /** What the tenant is read for (started before the work list is read, which is on the way either way). */
  read: (run: PeopleRun<P>) => Promise<R>;
  /** Settles the rows that cannot be sent and gives the others their target. */
  resolve: (
    run: PeopleRun<P>,
    tenant: R,
    work: Work<D>[],
  ) => Promise<{ settled: Settled[]; send: Sendable<D, T>[] }> | { settled: Settled[]; send: Sendable<D, T>[] };
  /** What each row to send would do, sending nothing. */
  dryRun: (run: PeopleRun<P>, tenant: R, send: Sendable<D, T>[]) => Promise<Settled[]> | Settled[];
  sending: (run: PeopleRun<P>) => string;
  sender: Sender<P, D, T>;
  /** A refusal that does not end the run (a 400, a 404), in the platform's words: what it settles the rows as. */
  refused: (run: PeopleRun<P>, error: unknown, row: Sendable<D, T>) => Refusal;
  /** After sending (stopped or not): the caches of the kinds the import changed. */
  changed?: (run: PeopleRun<P>) => void;
}

/** Errors that end this run (the runner waits for the tenant, or pauses for the admin); the rest settle their rows. */
export function endsRun(error: unknown): boolean {
  return (
    error instanceof RequestAbortedError ||
    isTransient(error) ||
    (error instanceof ApiError && (error.status === 401 || error.status === 403))
  );
}

/** The rows a killed run left in flight: their requests may have reached the tenant. */
function inFlightRows(params: object): Set<number> {
  const rows = new Set<number>();
  for (const [key, value] of Object.entries(params)) {
    if (!key.startsWith(IN_FLIGHT) || !Array.isArray(value)) continue;
    for (const [first, last] of value as [number, number][]) for (let id = first; id <= last; id++) rows.add(id);
  }
  return rows;
}

const stateOf = (outcome: Outcome) =>
  outcome === 'failed'
    ? 'failed'
    : outcome === 'unknown' || outcome === 'invalid' || outcome === 'repeated'
      ? 'skipped'
      : 'done';

/**
 * Splits the rows to send into the first of each key and the repeats, settled as `repeated` with the row that came
 * first (shared/import-summary.ts): a person named twice for the same target is sent once.
 */
export function settleRepeats<S extends { item: Work }>(
  rows: readonly S[],
  keyOf: (row: S) => string | null,
): { send: S[]; repeated: Settled[] } {
  const repeats = repeatedRows(
    [...rows].sort((a, b) => a.item.data.line - b.item.data.line),
    keyOf,
    (row) => row.item.data.line,
  );
  return {
    send: rows.filter((row) => !repeats.has(row)),
    repeated: [...repeats].map(([row, first]) => ({
      item: row.item,
      outcome: 'repeated' as const,
      message: repeatedMessage(first),
    })),
  };
}

/** Writes the job and its items (rows that will not be sent settled at once) and starts it; resumes the same one. */
export function startPeopleImport<D extends PeopleItemData>(
  ctx: { journal: JobJournal; runner: { start(id: string, options?: { handoff?: unknown }): unknown } },
  job: {
    kind: JobKind;
    profileId: string;
    /** The params an unfinished job for the same file must have to be resumed instead. */
    same: Record<string, string | number>;
    /** A further check of an unfinished job's params (ones older jobs did not write). */
    alsoSame?: (params: unknown) => boolean;
    params: object;
    columns: readonly ('person' | 'group')[];
    rows: readonly PeopleRow[];
    label: (data: D) => string;
    /** The job's title, from the rows that will be sent and all of the file's. */
    title: (sent: number, rows: number) => string;
  },
): { id: string; resumed: boolean } {
  const { journal, runner } = ctx;
  const [unfinished] = journal
    .find({ kind: job.kind, profileId: job.profileId, states: UNFINISHED_STATES, params: job.same })
    .filter((found) => !job.alsoSame || job.alsoSame(JSON.parse(found.params)));
  if (unfinished) {
    runner.start(unfinished.id);
    return { id: unfinished.id, resumed: true };
  }
  const counts = { invalid: 0, dropped: 0 };
  function* items(): Generator<NewItem> {
    for (const row of job.rows) {
      const data = { line: row.line } as D;
      for (const column of job.columns) (data as Record<string, unknown>)[column] = row.values[column] ?? '';
      const base = { key: `line:${row.line}`, label: job.label(data) };
      if (row.dropped) {
        counts.dropped++;
        yield { ...base, state: 'skipped', phase: 'dropped', data: { ...data, message: 'Left out before the import' } };
      } else if (row.problems.length) {
        counts.invalid++;
        const message = row.problems.map((p) => p.message).join('; ');
        yield { ...base, state: 'skipped', phase: 'invalid', data: { ...data, message } };
      } else yield { ...base, state: 'pending', phase: '', data };
    }
  }
  const sent = job.rows.filter((row) => !row.dropped && !row.problems.length).length;
  // The rows to send as the first run's work list, as written: it need not read back 10,000 rows just committed.
  const work: Work<D>[] = [];
  const id = journal.transaction(() => {
    const jobId = journal.create({
      kind: job.kind,
      profileId: job.profileId,
      title: job.title(sent, job.rows.length),
      params: job.params,
      items: items(),
      inserted: (item, itemId) => {
        if (item.state === 'pending') work.push({ id: itemId, phase: '', data: item.data as D, resumed: false });
      },
    });
    journal.addCounts(jobId, counts);
    return jobId;
  });
  runner.start(id, { handoff: work });
  return { id, resumed: false };
}

/** Runs `task` for each of `list`, a few at a time; stops taking more after the first error, which it throws. */
async function eachFew<X>(list: readonly X[], task: (x: X) => Promise<void>): Promise<void> {
  let next = 0;
  let stop: { error: unknown } | undefined;
  await Promise.all(
    Array.from({ length: Math.min(WAITING, list.length) }, async () => {
      while (!stop && next < list.length) {
        const x = list[next++]!;
        try {
          await task(x);
        } catch (error) {
          stop ??= { error };
        }
      }
    }),
  );
  if (stop) throw stop.error;
}

/**
 * Answers each row by its own request through the tenant's limiter: a few rows waiting in it at a time (it lets through
 * as many as the tenant takes), never a waiter and an abort listener per row of a long file. `answered` has the answers
 * in the order they came, also when a request that ends the run is thrown.
 */
export async function eachInLimiter<X>(
  ctx: Pick<JobContext, 'limiter' | 'signal'>,
  rows: readonly X[],
  answer: (row: X) => Promise<Settled>,
  answered: Settled[] = [],
): Promise<Settled[]> {
  await eachFew(rows, async (row) => void answered.push(await ctx.limiter.run(() => answer(row), ctx.signal)));
  return answered;
}

export function peopleImportJob<P extends ImportMode, D extends PeopleItemData, T, R>(
  kind: PeopleImport<P, D, T, R>,
  deps: { profiles: Profiles; finished?: (job: Job) => void },
): JobKindRunner {
  const phaseOf = (outcome: Outcome) => kind.phases?.[outcome] ?? outcome;
  return {
    kind: kind.job,
    bulkWrites: true,
    report: peopleReport(kind),
    ...(deps.finished && { finished: deps.finished }),
    async run(ctx: JobContext) {
      const { journal } = ctx;
      const profileId = ctx.job.profile_id ?? '';
      const client = await ctx.client();
      const scope = await userScope(deps.profiles, profileId);
      const run: PeopleRun<P> = {
        ctx,
        params: ctx.params as P,
        profileId,
        client,
        org: scope.org,
        username: scope.username,
        options: { signal: ctx.signal },
      };

      /**
       * Outcomes, the job's counts and the end of the batch's in-flight mark in one transaction: a kill -9 never
       * separates them. Rows of one outcome and message (most of a batch: "added") are one statement.
       */
      const settle = (results: readonly Settled[], inFlight?: string) => {
        if (!results.length && !inFlight) return;
        const counts: Record<string, number> = {};
        const alike = new Map<string, { outcome: Outcome; phase: string; message?: string; ids: number[] }>();
        for (const { item, outcome, message, phase: own, tally, counted: countedAs } of results) {
          const counted = phaseOf(outcome);
          const phase = own ?? counted;
          counts[countedAs ?? counted] = (counts[countedAs ?? counted] ?? 0) + 1;
          if (tally) counts[tally] = (counts[tally] ?? 0) + 1;
          const key = message === undefined ? phase : `${phase}\n${message}`;
          let same = alike.get(key);
          if (!same) alike.set(key, (same = { outcome, phase, ...(message !== undefined && { message }), ids: [] }));
          same.ids.push(item.id);
        }
        journal.transaction(() => {
          for (const { outcome, phase, message, ids } of alike.values()) {
            const state = stateOf(outcome);
            // Settled by run, not a write per row; rows with words of their own get them.
            if (state !== 'failed' && message === undefined) journal.settleItems(ctx.job.id, ids, { state, phase });
            else {
              journal.updateItems(ids, {
                state,
                phase,
                error: state === 'failed' ? (message ?? 'Failed') : null,
                ...(message !== undefined && state !== 'failed' && { data: { message } }),
              });
            }
          }
          journal.addCounts(ctx.job.id, counts);
          if (inFlight) journal.removeParam(ctx.job.id, inFlight);
        });
      };

      const sentBefore = inFlightRows(ctx.params as object);
      const reading = kind.read(run);
      reading.catch(() => {});
      // A job just written here is handed its rows (startPeopleImport); any other run reads them from the journal.
      const work =
        (ctx.handoff as Work<D>[] | undefined) ??
        journal.workIn(ctx.job.id, ['pending', 'active']).map(({ id, phase, data }): Work<D> => ({
          id,
          phase,
          data: JSON.parse(data) as D,
          resumed: phase === SENDING || sentBefore.has(id),
        }));
      const tenant = await reading;
      const { settled, send } = await kind.resolve(run, tenant, work);
      settle(settled);

      if (run.params.mode === 'dry-run') {
        settle(await kind.dryRun(run, tenant, send));
        ctx.progress();
        return;
      }

      const refused = (error: unknown, rows: Sendable<D, T>[]): Settled[] => {
        if (endsRun(error)) throw error;
        return rows.map((row) => ({ item: row.item, ...kind.refused(run, error, row) }));
      };
      /** Marks a batch in flight, has it sent, and settles what the tenant answered. */
      const sendBatch = async (batch: Sendable<D, T>[], sent: (batch: Sendable<D, T>[]) => Promise<Settled[]>) => {
        if (ctx.signal.aborted) throw new RequestAbortedError();
        const inFlight = `${IN_FLIGHT}${batch[0]!.item.id}`;
        journal.setParam(ctx.job.id, inFlight, idRuns(batch.map(({ item }) => item.id)));
        settle(await sent(batch), inFlight);
        ctx.progress();
      };

      ctx.progress(kind.sending(run));
      const { sender } = kind;
      try {
        if ('bulk' in sender) {
          const groups = new Map<string | number, Sendable<D, T>[]>();
          for (const row of send) {
            const key = sender.group?.(row.target) ?? '';
            let rows = groups.get(key);
            if (!rows) groups.set(key, (rows = []));
            rows.push(row);
          }
          const batches = [...groups.values()].flatMap((rows) =>
            Array.from({ length: Math.ceil(rows.length / sender.batch) }, (_, i) =>
              rows.slice(i * sender.batch, (i + 1) * sender.batch),
            ),
          );
          await eachFew(batches, (batch) =>
            ctx.limiter.run(
              () => sendBatch(batch, (rows) => sender.bulk(run, rows).catch((error: unknown) => refused(error, rows))),
              ctx.signal,
            ),
          );
        } else {
          for (let start = 0; start < send.length; start += sender.batch) {
            await sendBatch(send.slice(start, start + sender.batch), async (rows) => {
              const answers: Settled[] = [];
              try {
                const answer = (row: Sendable<D, T>) =>
                  sender.each(run, row).catch((error: unknown) => refused(error, [row])[0]!);
                return await eachInLimiter(ctx, rows, answer, answers);
              } catch (error) {
                // The rows answered are settled; the others stay in flight, sent again by the next run.
                settle(answers);
                throw error;
              }
            });
          }
        }
      } finally {
        kind.changed?.(run);
      }
      // Marks of a killed run whose rows this run sent in other batches, all settled now.
      for (const key of Object.keys(ctx.params as object)) {
        if (key.startsWith(IN_FLIGHT)) journal.removeParam(ctx.job.id, key);
      }
    },
  };
}

/** One line per input row, in file order (the journal's CSV writer makes every cell safe for spreadsheets). */
function peopleReport(kind: Pick<PeopleImport<never, never, never, never>, 'columns' | 'report'>): ItemReport {
  return {
    header: kind.report.header,
    row(item) {
      const data = JSON.parse(item.data) as PeopleItemData;
      const result =
        item.state === 'pending' || item.state === 'active'
          ? 'not sent'
          : (kind.report.words[item.phase] ?? (item.phase === 'repeated' ? 'repeated in the file' : item.phase));
      const cell = (c: 'person' | 'group') => (c === 'group' ? (data.groupName ?? data.group) : data[c]) ?? '';
      return [data.line, ...kind.columns.map(cell), result, item.error ?? data.message ?? ''];
    },
  };
}
