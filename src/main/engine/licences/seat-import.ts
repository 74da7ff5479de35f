/**
 * The `licence-seats` job: a CSV file of people (an email or username a row) each given a seat of one licence, one
 * journal item per row, one request per person (the platform has no bulk call for seats). It starts by reading the
 * licence and the seats it has given: a person holding one already is "already" (nothing sent); the rest take the
 * free seats in file order, and the rows past the last free seat are said to be over the licence's seats. The spec
 * does not say the platform refuses those, so they are sent too, and each row says it went beyond the seats.
 *
 * A dry run sends nothing: it also reads the tenant's people and settles each row with what it would do.
 *
 * Resumable: a chunk's items are marked `sending` (one statement) before their requests and settled with the job's
 * counts in one transaction after. Giving a person the seat they hold answers that seat again, so a chunk left
 * `sending` by a killed run is read at the start: who holds a seat by then was given it by this import.
 */
import { setMaxListeners } from 'node:events';
import { z } from 'zod';
import type { Job } from '../../../shared/contract';
import { PERSON_SYNONYMS, type CsvColumn, type ResourceKind, type SeatKind } from '../../../shared/resources';
import type { ItemReport, JobContext, JobKindRunner, NewItem, WorkItem } from '../jobs';
import { UNFINISHED_STATES } from '../jobs';
import {
  ApiError,
  isTransient,
  platformWords,
  RequestAbortedError,
  type CallOptions,
  type PlatformClient,
} from '../platform';
import type { Profiles } from '../profiles';
import { userScope } from '../tenants';
import type { EngineServices } from '../context';
import { readLicence, readSeats, seatCalls, tenantPeopleById, type Seat, type SeatCalls } from './seats-api';

export const SEATS_JOB = 'licence-seats';
/** Rows marked sending, and settled, per transaction. */
const CHUNK = 500;
const SENDING = 'sending';

export interface SeatsImportParams {
  /** Whose seats: a user, course or program licence's (absent in jobs written before course and program seats). */
  kind?: SeatKind;
  licenseId: number;
  fileName: string;
  fileSha256: string;
  rows: number;
  mode: 'send' | 'dry-run';
}

export type SeatsItemData = { line: number; person: string; message?: string };

export const SEATS_OUTCOMES = ['added', 'wouldAdd', 'already', 'unknown', 'invalid', 'failed', 'dropped'] as const;
type Outcome = (typeof SEATS_OUTCOMES)[number];

interface Work {
  id: number;
  phase: string;
  data: SeatsItemData;
}
interface Settled {
  item: Work;
  outcome: Outcome;
  message?: string;
  /** Past the licence's free seats. */
  over?: boolean;
}
/** A dry run's row past the free seats: counted as `wouldAdd`, kept in a phase of its own so a screen can list it. */
export const OVER_SEATS_PHASE = 'overSeats';

/** A row as the import read it (resources/import.ts). */
export interface SeatsRow {
  line: number;
  values: Record<string, string>;
  problems: { field: string | null; message: string }[];
  dropped: boolean;
}

/** A seat file's one column: the person, by email or user id (what the platform's seat call takes). */
export function seatColumns(): CsvColumn[] {
  return [{ field: 'person', label: 'Email or user ID', synonyms: [...PERSON_SYNONYMS, 'user id', 'user_id', 'id'] }];
}

export function seatRow() {
  const words = 'Give the person’s email or user ID (the platform gives a seat by one of the two)';
  return z.object({
    person: z
      .string({ error: words })
      .trim()
      .refine((cell) => cell.includes('@') || /^\d+$/.test(cell), words),
  });
}

/** Writes the job and its items (rows that will not be sent settled at once) and starts it; resumes the same one. */
export function startSeatsJob(
  ctx: Pick<EngineServices, 'journal' | 'runner'>,
  profileId: string,
  kind: SeatKind,
  licenseId: number,
  fileName: string,
  sha256: string,
  rows: readonly SeatsRow[],
  mode: SeatsImportParams['mode'],
): { id: string; resumed: boolean } {
  const { journal, runner } = ctx;
  const [unfinished] = journal
    .find({
      kind: SEATS_JOB,
      profileId,
      states: UNFINISHED_STATES,
      params: { licenseId, fileSha256: sha256, mode },
    })
    .filter((job) => ((JSON.parse(job.params) as SeatsImportParams).kind ?? 'license-assignments') === kind);
  if (unfinished) {
    runner.start(unfinished.id);
    return { id: unfinished.id, resumed: true };
  }
  const counts = { invalid: 0, dropped: 0 };
  function* items(): Generator<NewItem> {
    for (const row of rows) {
      const data: SeatsItemData = { line: row.line, person: row.values.person ?? '' };
      const base = { key: `line:${row.line}`, label: data.person || `Line ${row.line}` };
      if (row.dropped) {
        counts.dropped++;
        yield { ...base, state: 'skipped', phase: 'dropped', data: { ...data, message: 'Left out before the import' } };
      } else if (row.problems.length) {
        counts.invalid++;
        yield { ...base, state: 'skipped', phase: 'invalid', data: { ...data, message: row.problems[0]!.message } };
      } else yield { ...base, state: 'pending', phase: '', data };
    }
  }
  const sent = rows.filter((row) => !row.dropped && !row.problems.length).length;
  const params: SeatsImportParams = { kind, licenseId, fileName, fileSha256: sha256, rows: rows.length, mode };
  const licence = seatCalls(kind).licenceLabel.toLowerCase();
  const what = `${sent.toLocaleString('en-US')} ${sent === 1 ? 'seat' : 'seats'}`;
  const id = journal.transaction(() => {
    const jobId = journal.create({
      kind: SEATS_JOB,
      profileId,
      title: `${mode === 'dry-run' ? 'Dry run: give' : 'Give'} ${what} of ${licence} ${licenseId} (${fileName})`,
      params,
      items: items(),
    });
    journal.addCounts(jobId, counts);
    return jobId;
  });
  runner.start(id);
  return { id, resumed: false };
}

function endsRun(error: unknown): boolean {
  return (
    error instanceof RequestAbortedError ||
    isTransient(error) ||
    (error instanceof ApiError && (error.status === 401 || error.status === 403))
  );
}

const personKey = (person: string) => person.trim().toLowerCase();

async function giveSeat(
  client: PlatformClient,
  calls: SeatCalls,
  org: string,
  licenseId: number,
  person: string,
  options: CallOptions,
): Promise<void> {
  // Every licence's assignment takes the person as `email` or `user_id` (the CSV check lets only those through).
  const who = /^\d+$/.test(person.trim()) ? { user_id: Number(person) } : { email: person.trim() };
  await client.api.POST(calls.give, {
    params: { query: { license_id: licenseId, platform_key: org } },
    body: { license_id: licenseId, platform_key: org, ...who },
    ...options,
  });
}

export function seatsImportKind(deps: {
  profiles: Profiles;
  changed: (profileId: string, licenceKind: ResourceKind) => void;
  finished?: (job: Job) => void;
}): JobKindRunner {
  return {
    kind: SEATS_JOB,
    bulkWrites: true,
    report: seatsReport,
    ...(deps.finished && { finished: deps.finished }),
    async run(ctx: JobContext) {
      const params = ctx.params as SeatsImportParams;
      const profileId = ctx.job.profile_id ?? '';
      const { journal } = ctx;
      const client = await ctx.client();
      const scope = await userScope(deps.profiles, profileId);
      const options = { signal: ctx.signal };
      const calls = seatCalls(params.kind ?? 'license-assignments');
      setMaxListeners(CHUNK * 2 + 32, ctx.signal);

      const settle = (results: Settled[]) => {
        if (!results.length) return;
        const counts: Record<string, number> = {};
        const alike = new Map<string, { outcome: Outcome; phase: string; message?: string; ids: number[] }>();
        for (const { item, outcome, message, over } of results) {
          counts[outcome] = (counts[outcome] ?? 0) + 1;
          if (over) counts.overSeats = (counts.overSeats ?? 0) + 1;
          const phase = over && outcome === 'wouldAdd' ? OVER_SEATS_PHASE : outcome;
          const key = `${phase}\n${message ?? ''}`;
          if (!alike.has(key)) alike.set(key, { outcome, phase, ...(message !== undefined && { message }), ids: [] });
          alike.get(key)!.ids.push(item.id);
        }
        journal.transaction(() => {
          for (const { outcome, phase, message, ids } of alike.values()) {
            journal.updateItems(ids, {
              state: outcome === 'failed' ? 'failed' : ['unknown', 'invalid'].includes(outcome) ? 'skipped' : 'done',
              phase,
              error: outcome === 'failed' ? (message ?? 'Failed') : null,
              ...(message !== undefined && outcome !== 'failed' && { data: { message } }),
            });
          }
          journal.addCounts(ctx.job.id, counts);
        });
      };

      ctx.progress(`Reading the ${calls.licenceLabel.toLowerCase()} and its seats`);
      const pending = journal
        .workIn(ctx.job.id, ['pending', 'active'])
        .map(({ id, phase, data }: WorkItem): Work => ({ id, phase, data: JSON.parse(data) as SeatsItemData }));
      const [licence, seats] = await Promise.all([
        readLicence(client, scope.org, params.licenseId, options, calls),
        readSeats(client, scope.org, params.licenseId, options, calls).catch((error: unknown) => {
          if (error instanceof ApiError && error.status === 404) return [] as Seat[];
          throw error;
        }),
      ]);
      if (!licence) {
        settle(
          pending.map((item) => ({
            item,
            outcome: 'unknown',
            message: `No ${calls.licenceLabel.toLowerCase()} ${params.licenseId} on this tenant`,
          })),
        );
        return;
      }
      const holders = new Set<string>();
      for (const seat of seats) {
        if (!seat.active) continue;
        if (seat.user_id !== null) holders.add(String(seat.user_id));
        if (seat.email) holders.add(seat.email.toLowerCase());
      }
      const freeAtStart = Math.max(0, licence.count - (licence.usage_count ?? seats.filter((s) => s.active).length));
      let free = freeAtStart;
      const overWords = `Beyond the licence's ${licence.count.toLocaleString('en-US')} seats`;
      /** Rows already holding a seat settle now; the rest take the free seats in file order. */
      const toSend: { item: Work; over: boolean }[] = [];
      const already: Settled[] = [];
      const seen = new Set<string>();
      for (const item of [...pending].sort((a, b) => a.data.line - b.data.line)) {
        const key = personKey(item.data.person);
        if (holders.has(key) || seen.has(key)) {
          already.push(
            item.phase === SENDING && holders.has(key)
              ? { item, outcome: 'added', message: 'Given before the import was interrupted' }
              : {
                  item,
                  outcome: 'already',
                  message: seen.has(key) ? 'Named on an earlier row' : 'Holds a seat already',
                },
          );
          continue;
        }
        seen.add(key);
        toSend.push({ item, over: free <= 0 });
        free--;
      }
      settle(already);

      if (params.mode === 'dry-run') {
        ctx.progress('Reading the tenant’s people');
        const people = await tenantPeopleById(client, scope.org, options);
        // Rows the platform would refuse take no seat: the free seats go to the others in file order.
        let left = freeAtStart;
        settle(
          toSend.map(({ item }): Settled => {
            const person = personKey(item.data.person);
            const known = people.has(person);
            if (!known && !(calls.emailOnly && person.includes('@'))) {
              return { item, outcome: 'unknown', message: `No account for ${item.data.person} on this tenant` };
            }
            const over = left-- <= 0;
            if (over) return { item, outcome: 'wouldAdd', over, message: `Will not fit: ${overWords.toLowerCase()}` };
            // The spec's program licences give an email with no account a seat of its own.
            return known
              ? { item, outcome: 'wouldAdd' }
              : { item, outcome: 'wouldAdd', message: 'No account yet: the platform keeps the seat for the email' };
          }),
        );
        return;
      }

      ctx.progress('Giving seats');
      for (let start = 0; start < toSend.length; start += CHUNK) {
        if (ctx.signal.aborted) throw new RequestAbortedError();
        const chunk = toSend.slice(start, start + CHUNK);
        journal.updateItems(
          chunk.filter(({ item }) => item.phase !== SENDING).map(({ item }) => item.id),
          { phase: SENDING },
        );
        const settled = await Promise.allSettled(
          chunk.map(({ item, over }) =>
            ctx.limiter.run(async (): Promise<Settled> => {
              try {
                await giveSeat(client, calls, scope.org, params.licenseId, item.data.person, options);
                return { item, outcome: 'added', over, ...(over && { message: overWords }) };
              } catch (error) {
                if (endsRun(error)) throw error;
                // The spec's messages as the platform says them ("Not found - license or user doesn't exist").
                const message = platformWords(error);
                const status = error instanceof ApiError ? error.status : 0;
                const outcome = status === 404 ? 'unknown' : status === 400 ? 'invalid' : 'failed';
                // A program licence refuses a seat past its count (the spec's note): that row is over the seats.
                return { item, outcome, over: over && outcome === 'invalid', message };
              }
            }, ctx.signal),
          ),
        );
        settle(settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : [])));
        ctx.progress();
        const stop = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
        // The rows of this chunk that got no answer stay `sending`: the next run reads who holds a seat first.
        if (stop) {
          deps.changed(profileId, calls.licenceKind);
          throw stop.reason;
        }
      }
      deps.changed(profileId, calls.licenceKind);
    },
  };
}

const RESULTS: Record<string, string> = {
  added: 'given',
  wouldAdd: 'would give',
  [OVER_SEATS_PHASE]: 'would give',
  already: 'already',
  unknown: 'unknown',
  invalid: 'invalid',
  dropped: 'dropped',
  failed: 'failed',
};

/** One line per input row, in file order (the journal's CSV writer makes every cell safe for spreadsheets). */
export const seatsReport: ItemReport = {
  header: ['row', 'person', 'result', 'message'],
  row(item) {
    const data = JSON.parse(item.data) as SeatsItemData;
    const result =
      item.state === 'pending' || item.state === 'active' ? 'not sent' : (RESULTS[item.phase] ?? item.phase);
    return [data.line, data.person, result, item.error ?? data.message ?? ''];
  },
};
