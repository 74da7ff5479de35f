/**
 * The `licence-seats` job: a CSV file of people (an email or user id a row) each given a seat of one licence, on the
 * people-file import job (people-import/), one request per person (the platform has no bulk call for seats). It
 * starts by reading the licence and the seats it has given: a person holding one already is "already" (nothing sent);
 * the rest take the free seats in file order, and the rows past the last free seat are said to be over the licence's
 * seats. The spec does not say the platform refuses those, so they are sent too, and each row says it went beyond the
 * seats. A dry run sends nothing: it also reads the tenant's people and settles each row with what it would do.
 *
 * Giving a person the seat they hold answers that seat again, so the rows a killed run left in flight are read at the
 * start: who holds a seat by then was given it by this import.
 */
import { z } from 'zod';
import type { Job } from '../../../shared/contract';
import { PERSON_SYNONYMS, type CsvColumn, type ResourceKind, type SeatKind } from '../../../shared/resources';
import type { JobKindRunner } from '../jobs';
import {
  peopleImportJob,
  readTenantPeople,
  settleRepeats,
  startPeopleImport,
  type PeopleImport,
  type PeopleRow,
  type Sendable,
  type Settled,
} from '../people-import';
import { ApiError, platformWords, type CallOptions, type PlatformClient } from '../platform';
import type { Profiles } from '../profiles';
import type { EngineServices } from '../context';
import { readLicence, readSeats, seatCalls, type Seat, type SeatCalls } from './seats-api';

export const SEATS_JOB = 'licence-seats';
/** Rows marked in flight, and settled, per transaction. */
const CHUNK = 500;

export interface SeatsImportParams {
  /** Whose seats: a user, course or program licence's (absent in jobs written before course and program seats). */
  kind?: SeatKind;
  licenseId: number;
  fileName: string;
  fileSha256: string;
  rows: number;
  /** The rows to send (not left out, no problems): the job's title counts them. */
  sent?: number;
  mode: 'send' | 'dry-run';
}

export type SeatsItemData = { line: number; person: string; message?: string };

/** A dry run's row past the free seats: counted as `overSeats` (not `wouldAdd`), in a phase of its own to list it. */
export const OVER_SEATS_PHASE = 'overSeats';

/** A row as the import read it (resources/import.ts). */
export type SeatsRow = PeopleRow;

const COLUMNS = ['person'] as const;

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
  const sent = rows.filter((row) => !row.dropped && !row.problems.length).length;
  const params: SeatsImportParams = { kind, licenseId, fileName, fileSha256: sha256, rows: rows.length, sent, mode };
  return startPeopleImport<SeatsItemData>(ctx, {
    kind: SEATS_JOB,
    profileId,
    same: { licenseId, fileSha256: sha256, mode },
    alsoSame: (found) => ((found as SeatsImportParams).kind ?? 'license-assignments') === kind,
    params,
    columns: COLUMNS,
    rows,
    label: (data) => data.person || `Line ${data.line}`,
    // Named by the licence once the run has read it (seatsTitle); its number is no name for an administrator.
    title: (sent) => seatsTitle(mode, sent, null, fileName),
  });
}

/** "Dry run: give 48 seats of Acme Pro (staff.csv)"; before the licence is read, "… seats of the licence …". */
export function seatsTitle(mode: SeatsImportParams['mode'], sent: number, licenceName: string | null, file: string) {
  const seats = `${sent.toLocaleString('en-US')} ${sent === 1 ? 'seat' : 'seats'}`;
  return `${mode === 'dry-run' ? 'Dry run: give' : 'Give'} ${seats} of ${licenceName ?? 'the licence'} (${file})`;
}

const personKey = (person: string) => person.trim().toLowerCase();
const callsOf = (params: SeatsImportParams) => seatCalls(params.kind ?? 'license-assignments');

/** The licence (null: not the tenant's), its seats, and how many were free when the run began. */
type Tenant = { licence: Awaited<ReturnType<typeof readLicence>>; seats: Seat[]; free: number; overWords: string };
/** A row to send: whether it is past the free seats, and the words that say so. */
type Target = { over: boolean; overWords: string };

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
  const kind: PeopleImport<SeatsImportParams, SeatsItemData, Target, Tenant> = {
    job: SEATS_JOB,
    columns: COLUMNS,
    report: {
      header: ['row', 'person', 'result', 'message'],
      words: { added: 'given', wouldAdd: 'would give', [OVER_SEATS_PHASE]: 'will not fit' },
    },
    async read({ ctx, client, org, params, options }) {
      const calls = callsOf(params);
      ctx.progress(`Reading the ${calls.licenceLabel.toLowerCase()} and its seats`);
      const [licence, seats] = await Promise.all([
        readLicence(client, org, params.licenseId, options, calls),
        readSeats(client, org, params.licenseId, options, calls).catch((error: unknown) => {
          if (error instanceof ApiError && error.status === 404) return [] as Seat[];
          throw error;
        }),
      ]);
      if (!licence) return { licence, seats, free: 0, overWords: '' };
      const sent = params.sent ?? params.rows;
      if (licence.name) ctx.journal.setTitle(ctx.job.id, seatsTitle(params.mode, sent, licence.name, params.fileName));
      const used = licence.usage_count ?? seats.filter((s) => s.active).length;
      const overWords = `Beyond the licence's ${licence.count.toLocaleString('en-US')} seats`;
      return { licence, seats, free: Math.max(0, licence.count - used), overWords };
    },
    resolve({ params }, { licence, seats, free: freeAtStart, overWords }, work) {
      if (!licence) {
        const message = `No ${callsOf(params).licenceLabel.toLowerCase()} ${params.licenseId} on this tenant`;
        return { settled: work.map((item) => ({ item, outcome: 'unknown', message })), send: [] };
      }
      const holders = new Set<string>();
      for (const seat of seats) {
        if (!seat.active) continue;
        if (seat.user_id !== null) holders.add(String(seat.user_id));
        if (seat.email) holders.add(seat.email.toLowerCase());
      }
      let free = freeAtStart;
      // A person named twice is given one seat: the later rows are repeats of the first.
      const { send: once, repeated } = settleRepeats(
        work.map((item) => ({ item })),
        ({ item }) => personKey(item.data.person),
      );
      /** Rows already holding a seat settle now; the rest take the free seats in file order. */
      const send: Sendable<SeatsItemData, Target>[] = [];
      const settled: Settled[] = [...repeated];
      for (const { item } of once.sort((a, b) => a.item.data.line - b.item.data.line)) {
        const key = personKey(item.data.person);
        if (holders.has(key)) {
          settled.push(
            item.resumed
              ? { item, outcome: 'added', message: 'Given before the import was interrupted' }
              : { item, outcome: 'already', message: 'Holds a seat already' },
          );
          continue;
        }
        send.push({ item, target: { over: free <= 0, overWords } });
        free--;
      }
      return { settled, send };
    },
    async dryRun({ ctx, client, org, params, options }, { free, overWords }, send) {
      ctx.progress('Reading the tenant’s people');
      const people = await readTenantPeople(client, org, options);
      const { emailOnly } = callsOf(params);
      // Rows the platform would refuse take no seat: the free seats go to the others in file order.
      let left = free;
      return send.map(({ item }): Settled => {
        const known = !!people.findByEmailOrId(item.data.person);
        if (!known && !(emailOnly && item.data.person.includes('@'))) {
          return { item, outcome: 'unknown', message: `No account for ${item.data.person} on this tenant` };
        }
        if (left-- <= 0) {
          // Counted as past the seats only, so a dry run's counts add up to its rows.
          const message = `Will not fit: ${overWords.toLowerCase()}`;
          return { item, outcome: 'wouldAdd', phase: OVER_SEATS_PHASE, counted: 'overSeats', message };
        }
        // The spec's program licences give an email with no account a seat of its own.
        return known
          ? { item, outcome: 'wouldAdd' }
          : { item, outcome: 'wouldAdd', message: 'No account yet: the platform keeps the seat for the email' };
      });
    },
    sending: () => 'Giving seats',
    sender: {
      batch: CHUNK,
      async each({ client, org, params, options }, { item, target }) {
        await giveSeat(client, callsOf(params), org, params.licenseId, item.data.person, options);
        return target.over
          ? { item, outcome: 'added', tally: 'overSeats', message: target.overWords }
          : { item, outcome: 'added' };
      },
    },
    refused(_run, error, { target }) {
      // The spec's messages as the platform says them ("Not found - license or user doesn't exist").
      const message = platformWords(error);
      const status = error instanceof ApiError ? error.status : 0;
      const outcome = status === 404 ? 'unknown' : status === 400 ? 'invalid' : 'failed';
      // A program licence refuses a seat past its count (the spec's note): that row is over the seats.
      return { outcome, message, ...(target.over && outcome === 'invalid' && { tally: 'overSeats' }) };
    },
    changed: ({ profileId, params }) => deps.changed(profileId, callsOf(params).licenceKind),
  };
  return peopleImportJob(kind, deps);
}
