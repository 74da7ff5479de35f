/**
 * The `resource-members` job: a CSV file of people and groups (a person's email or username, a department's or user
 * group's name or id) put into the groups through the platform's bulk call, one journal item per row. Rows are grouped
 * by group and sent in batches of MEMBERS_BATCH; each person's answer settles their row: added, already (in the group
 * before: not an error), unknown (no such person or group on the tenant: reported for that row, the others go on).
 *
 * A dry run sends nothing: it reads the tenant's people, groups and memberships and settles each row with what it
 * would do (would add, already, unknown).
 *
 * Resumable: before a batch's request its rows are written in the job's params as in flight (one small write of id
 * ranges, not one per row), and after it they are settled, the job's counts added and the mark removed in one
 * transaction; the rows added are settled as runs of consecutive ids (the journal's settleItems), one write each.
 * The bulk call is idempotent (a person already in the group is answered "already"), so a batch left
 * in flight by a killed run is sent again and adds nobody twice; its "already" answers count as added by this import,
 * which sent them before it was interrupted.
 */
import { setMaxListeners } from 'node:events';
import type { Job } from '../../../shared/contract';
import {
  bulkPersonOf,
  declarationOf,
  type BulkPerson,
  type ResourceDeclaration,
  type ResourceKind,
} from '../../../shared/resources';
import type { ItemReport, JobContext, JobKindRunner, NewItem, WorkItem } from '../jobs';
import { idRuns, UNFINISHED_STATES } from '../jobs';
import { ApiError, isTransient, RequestAbortedError } from '../platform';
import type { Profiles } from '../profiles';
import { userScope } from '../tenants';
import { ResourceApi } from './api';
import { explain } from './explain';
import type { ImportServices } from './import';
import { addMembers, tenantPeople } from './members-api';

type Row = Record<string, unknown>;

/** People per bulk request. */
export const MEMBERS_BATCH = 500;
/** The phase rows in flight had when runs marked them one by one (a job left so by an older version resumes them). */
const SENDING = 'sending';
/** The params key of a batch in flight, followed by its first row's id; its value is the rows' [first, last] id runs. */
export const IN_FLIGHT = 'sending_';

/** The rows a killed run left in flight: their requests may have reached the tenant. */
function inFlightRows(params: object): Set<number> {
  const rows = new Set<number>();
  for (const [key, value] of Object.entries(params)) {
    if (!key.startsWith(IN_FLIGHT) || !Array.isArray(value)) continue;
    for (const [first, last] of value as [number, number][]) for (let id = first; id <= last; id++) rows.add(id);
  }
  return rows;
}

export interface MembersImportParams {
  kind: ResourceKind;
  fileName: string;
  fileSha256: string;
  rows: number;
  /** `dry-run` reads and reports, sending nothing. */
  mode: 'send' | 'dry-run';
  /** The group of rows whose file names none (an import from a group's details); '' for none. */
  group: string;
}

export type MembersItemData = {
  line: number;
  /** The person's email or username, and the group's name or id, as the row gives them. */
  person: string;
  group: string;
  message?: string;
};

export const MEMBERS_OUTCOMES = ['added', 'wouldAdd', 'already', 'unknown', 'invalid', 'failed', 'dropped'] as const;
type Outcome = (typeof MEMBERS_OUTCOMES)[number];

/** A row of the work list, its data read once. */
interface Work {
  id: number;
  phase: string;
  data: MembersItemData;
}

interface Settled {
  item: Work;
  outcome: Outcome;
  message?: string;
}

/** A row as the import read it (import.ts): its line, cells by column, and whether it is sent. */
export interface MembersRow {
  line: number;
  values: Record<string, string>;
  problems: { field: string | null; message: string }[];
  dropped: boolean;
}

/** Writes the job and its items (rows that will not be sent settled at once) and starts it; resumes the same one. */
export function startMembersJob(
  ctx: Pick<ImportServices, 'journal' | 'runner'>,
  profileId: string,
  kind: ResourceKind,
  fileName: string,
  sha256: string,
  rows: readonly MembersRow[],
  mode: MembersImportParams['mode'],
  group = '',
): { id: string; resumed: boolean } {
  const { journal, runner } = ctx;
  const [unfinished] = journal.find({
    kind: 'resource-members',
    profileId,
    states: UNFINISHED_STATES,
    params: { kind, fileSha256: sha256, mode, group },
  });
  if (unfinished) {
    runner.start(unfinished.id);
    return { id: unfinished.id, resumed: true };
  }
  const declaration = declarationOf(kind);
  const counts = { invalid: 0, dropped: 0 };
  function* items(): Generator<NewItem> {
    for (const row of rows) {
      const data: MembersItemData = { line: row.line, person: row.values.person ?? '', group: row.values.group ?? '' };
      const base = { key: `line:${row.line}`, label: `${data.person || '?'} → ${data.group || '?'}` };
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
  const sent = rows.filter((row) => !row.dropped && !row.problems.length).length;
  const params: MembersImportParams = { kind, fileName, fileSha256: sha256, rows: rows.length, mode, group };
  const what = `${sent.toLocaleString('en-US')} ${sent === 1 ? 'person' : 'people'}`;
  const id = journal.transaction(() => {
    const jobId = journal.create({
      kind: 'resource-members',
      profileId,
      title: `${mode === 'dry-run' ? 'Dry run: put' : 'Put'} ${what} into ${declarationOf(declaration.membership!.groupKind).plural} (${fileName})`,
      params,
      items: items(),
    });
    journal.addCounts(jobId, counts);
    return jobId;
  });
  runner.start(id);
  return { id, resumed: false };
}

/** Errors that end this run (the runner waits for the tenant, or pauses for the admin); the rest fail their rows. */
function endsRun(error: unknown): boolean {
  return (
    error instanceof RequestAbortedError ||
    isTransient(error) ||
    (error instanceof ApiError && (error.status === 401 || error.status === 403))
  );
}

/** The tenant's groups of a kind, found by id or by name (names compared without case). */
function groupFinder(groups: Row[], groupDeclaration: ResourceDeclaration) {
  const byId = new Map(groups.map((group) => [String(group.id), group]));
  const byName = new Map<string, Row[]>();
  for (const group of groups) {
    const name = String(group.name ?? '').toLowerCase();
    byName.set(name, [...(byName.get(name) ?? []), group]);
  }
  const noun = groupDeclaration.singular;
  type Found = { group: Row } | { outcome: Outcome; message: string };
  // A file names few groups for many rows: each cell is looked up once.
  const answers = new Map<string, Found>();
  const find = (cell: string): Found => {
    const text = cell.trim();
    const named = byName.get(text.toLowerCase()) ?? [];
    if (named.length > 1) {
      return {
        outcome: 'invalid',
        message: `${named.length} ${groupDeclaration.plural} are named "${text}": give the ${noun}'s id (${named.map((g) => String(g.id)).join(', ')})`,
      };
    }
    const group = named[0] ?? (/^\d+$/.test(text) ? byId.get(String(Number(text))) : undefined);
    if (group) return { group };
    return { outcome: 'unknown', message: `No ${noun} "${text}" on this tenant` };
  };
  return (cell: string): Found => {
    let found = answers.get(cell);
    if (!found) answers.set(cell, (found = find(cell)));
    return found;
  };
}

const personKey = (person: string) => (person.includes('@') ? person.trim().toLowerCase() : person.trim());
const personWords = (person: BulkPerson) =>
  'email' in person
    ? `No person with the email ${person.email} on this tenant`
    : `No person "${person.username}" on this tenant`;

export function membersImportKind(deps: {
  profiles: Profiles;
  changed: (profileId: string, kind: ResourceKind) => void;
  finished?: (job: Job) => void;
}): JobKindRunner {
  return {
    kind: 'resource-members',
    bulkWrites: true,
    report: membersReport,
    ...(deps.finished && { finished: deps.finished }),
    async run(ctx: JobContext) {
      const params = ctx.params as MembersImportParams;
      const declaration = declarationOf(params.kind);
      const membership = declaration.membership!;
      const groupDeclaration = declarationOf(membership.groupKind);
      const profileId = ctx.job.profile_id ?? '';
      const { journal } = ctx;
      const client = await ctx.client();
      const scope = await userScope(deps.profiles, profileId);
      const api = new ResourceApi(client, scope);
      const options = { signal: ctx.signal };
      setMaxListeners(64, ctx.signal);

      /**
       * Outcomes, the job's counts and the end of the batch's in-flight mark in one transaction: a kill -9 never
       * separates them. Rows of one outcome and message (most of a batch: "added") are one statement.
       */
      const settle = (results: Settled[], inFlight?: string, added: number[] = []) => {
        if (!results.length && !added.length) return;
        const counts: Record<string, number> = {};
        const alike = new Map<string, { outcome: Outcome; message?: string; ids: number[] }>();
        if (added.length) {
          counts.added = added.length;
          alike.set('added\n', { outcome: 'added', ids: added });
        }
        for (const { item, outcome, message } of results) {
          counts[outcome] = (counts[outcome] ?? 0) + 1;
          const key = `${outcome}\n${message ?? ''}`;
          if (!alike.has(key)) alike.set(key, { outcome, ...(message !== undefined && { message }), ids: [] });
          alike.get(key)!.ids.push(item.id);
        }
        journal.transaction(() => {
          for (const { outcome, message, ids } of alike.values()) {
            const state =
              outcome === 'failed' ? 'failed' : ['unknown', 'invalid'].includes(outcome) ? 'skipped' : 'done';
            // Most of a batch ("added"): settled by run, not a write per row. Rows with words of their own get them.
            if (state !== 'failed' && message === undefined)
              journal.settleItems(ctx.job.id, ids, { state, phase: outcome });
            else {
              journal.updateItems(ids, {
                state,
                phase: outcome,
                error: outcome === 'failed' ? (message ?? 'Failed') : null,
                ...(message !== undefined && outcome !== 'failed' && { data: { message } }),
              });
            }
          }
          journal.addCounts(ctx.job.id, counts);
          if (inFlight) journal.removeParam(ctx.job.id, inFlight);
        });
      };
      const sentBefore = inFlightRows(ctx.params as object);

      ctx.progress(`Reading the ${groupDeclaration.plural}`);
      // The work list is read while the tenant answers: it is on the way to the first request either way.
      const groups = api.list(groupDeclaration, options);
      groups.catch(() => {});
      const pending = journal
        .workIn(ctx.job.id, ['pending', 'active'])
        .map(({ id, phase, data }: WorkItem): Work => ({ id, phase, data: JSON.parse(data) as MembersItemData }));
      const findGroup = groupFinder(await groups, groupDeclaration);

      // Rows whose group is not the tenant's are settled now; the rest are sent by group.
      const byGroup = new Map<number, { group: Row; items: Work[] }>();
      const unresolved: Settled[] = [];
      for (const item of pending) {
        const { data } = item;
        const found = findGroup(data.group);
        if ('outcome' in found) unresolved.push({ item, outcome: found.outcome, message: found.message });
        else {
          const id = Number(found.group.id);
          if (!byGroup.has(id)) byGroup.set(id, { group: found.group, items: [] });
          byGroup.get(id)!.items.push(item);
        }
      }
      settle(unresolved);

      if (params.mode === 'dry-run') {
        ctx.progress('Reading the tenant’s people and their memberships');
        const [people, members] = await Promise.all([
          tenantPeople(client, scope.org, options),
          api.list(declaration, options),
        ]);
        const groupsOf = new Map<string, Set<number>>();
        for (const member of members) {
          const group = Number(member[membership.groupField]);
          for (const key of [member.username, typeof member.email === 'string' ? member.email.toLowerCase() : null]) {
            if (typeof key !== 'string' || !key) continue;
            if (!groupsOf.has(key)) groupsOf.set(key, new Set());
            groupsOf.get(key)!.add(group);
          }
        }
        const results: Settled[] = [];
        for (const [id, { group, items }] of byGroup) {
          for (const item of items) {
            const key = personKey(item.data.person);
            if (!people.has(key))
              results.push({ item, outcome: 'unknown', message: personWords(bulkPersonOf(item.data.person)) });
            else if (groupsOf.get(key)?.has(id))
              results.push({ item, outcome: 'already', message: `Already in ${String(group.name)}` });
            else {
              // A person is in one department: adding them to another moves them.
              const elsewhere = membership.groupKind === 'departments' ? [...(groupsOf.get(key) ?? [])][0] : undefined;
              results.push({
                item,
                outcome: 'wouldAdd',
                ...(elsewhere !== undefined && { message: `Would move from department ${elsewhere}` }),
              });
              groupsOf.set(
                key,
                new Set([...(membership.groupKind === 'departments' ? [] : (groupsOf.get(key) ?? [])), id]),
              );
            }
          }
        }
        settle(results);
        return;
      }

      const batches = [...byGroup.values()].flatMap(({ group, items }) => {
        const out: { group: Row; items: Work[] }[] = [];
        for (let start = 0; start < items.length; start += MEMBERS_BATCH) {
          out.push({ group, items: items.slice(start, start + MEMBERS_BATCH) });
        }
        return out;
      });

      const send = async ({ group, items }: { group: Row; items: Work[] }): Promise<void> => {
        if (ctx.signal.aborted) throw new RequestAbortedError();
        const resumed = new Set(
          items.filter((item) => item.phase === SENDING || sentBefore.has(item.id)).map((item) => item.id),
        );
        const inFlight = `${IN_FLIGHT}${items[0]!.id}`;
        journal.setParam(ctx.job.id, inFlight, idRuns(items.map((item) => item.id)));
        const people = items.map((item) => bulkPersonOf(item.data.person));
        const results: Settled[] = [];
        const added: number[] = [];
        try {
          const answer = await addMembers(client, scope.org, membership, Number(group.id), people, options);
          answer.results.forEach((result, index) => {
            const item = items[index]!;
            if (result.status === 'added') added.push(item.id);
            else if (result.status === 'not_found')
              results.push({ item, outcome: 'unknown', message: personWords(people[index]!) });
            else if (resumed.has(item.id))
              results.push({ item, outcome: 'added', message: 'Added before the import was interrupted' });
            else results.push({ item, outcome: 'already', message: `Already in ${String(group.name)}` });
          });
        } catch (error) {
          if (endsRun(error)) throw error;
          const explained = explain(error, declaration);
          const message = explained instanceof Error ? explained.message : String(explained);
          const refused = error instanceof ApiError && error.status === 400;
          for (const item of items) results.push({ item, outcome: refused ? 'invalid' : 'failed', message });
        }
        settle(results, inFlight, added);
        ctx.progress();
      };

      ctx.progress(`Putting people into ${groupDeclaration.plural}`);
      const settled = await Promise.allSettled(batches.map((batch) => ctx.limiter.run(() => send(batch), ctx.signal)));
      deps.changed(profileId, params.kind);
      deps.changed(profileId, membership.groupKind);
      const stop = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
      // The batches that got no answer stay in flight: the next run sends them again, adding nobody twice.
      if (stop) throw stop.reason;
      // Marks of a killed run whose rows this run sent in other batches, all settled now.
      for (const key of Object.keys(ctx.params as object)) {
        if (key.startsWith(IN_FLIGHT)) journal.removeParam(ctx.job.id, key);
      }
    },
  };
}

const RESULTS: Record<string, string> = {
  added: 'added',
  wouldAdd: 'would add',
  already: 'already',
  unknown: 'unknown',
  invalid: 'invalid',
  dropped: 'dropped',
  failed: 'failed',
};

/** One line per input row, in file order (the journal's CSV writer makes every cell safe for spreadsheets). */
export const membersReport: ItemReport = {
  header: ['row', 'person', 'group', 'result', 'message'],
  row(item) {
    const data = JSON.parse(item.data) as MembersItemData;
    const result =
      item.state === 'pending' || item.state === 'active' ? 'not sent' : (RESULTS[item.phase] ?? item.phase);
    return [data.line, data.person, data.group, result, item.error ?? data.message ?? ''];
  },
};
