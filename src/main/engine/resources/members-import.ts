/**
 * The `resource-members` job: a CSV file of people and groups (a person's email or username, a department's or user
 * group's name or id) put into the groups through the platform's bulk call, on the people-file import job
 * (people-import/). Rows are grouped by group and sent in batches of MEMBERS_BATCH; each person's answer settles their
 * row: added, already (in the group before: not an error), unknown (no such person or group on the tenant: reported
 * for that row, the others go on). A dry run reads the tenant's people and memberships and says what each row would do.
 *
 * The bulk call is idempotent (a person already in the group is answered "already"), so a batch left in flight by a
 * killed run is sent again and adds nobody twice; its "already" answers count as added by this import, which sent
 * them before it was interrupted.
 */
import type { Job } from '../../../shared/contract';
import {
  bulkPersonOf,
  declarationOf,
  pluralOf,
  type BulkPerson,
  type ResourceDeclaration,
  type ResourceKind,
} from '../../../shared/resources';
import type { JobKindRunner } from '../jobs';
import {
  peopleImportJob,
  personKey,
  settleRepeats,
  readTenantPeople,
  startKitImport,
  PAIR_COLUMNS,
  peopleCount,
  type KitImportParams,
  type PairItemData,
  type Outcome,
  type PeopleImport,
  type PeopleRow,
  type PeopleRun,
  type Settled,
} from '../people-import';
import { ApiError } from '../platform';
import type { Profiles } from '../profiles';
import { userScope } from '../tenants';
import { ResourceApi } from './api';
import { explain } from './explain';
import type { ImportServices } from './import';
import { addMembers } from './members-api';

type Row = Record<string, unknown>;

/** People per bulk request. */
export const MEMBERS_BATCH = 500;

export interface MembersImportParams extends KitImportParams {
  /** The group of rows whose file names none (an import from a group's details); '' for none. */
  group: string;
}

export type MembersItemData = PairItemData;

/** A row as the import read it (import.ts): its line, cells by column, and whether it is sent. */
export type MembersRow = PeopleRow;

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
  const groups = pluralOf(declarationOf(declarationOf(kind).membership!.groupKind));
  return startKitImport(
    ctx,
    'resource-members',
    { profileId, kind, fileName, sha256, rows, mode },
    {
      label: (data) => `${data.person || '?'} → ${data.group || '?'}`,
      title: (sent) => membersTitle(mode, sent, groups, fileName),
    },
    { group },
  );
}

/** "Dry run: put 3 people into Engineering (staff.csv)": into the one group, once the run knows it, or the kind's. */
function membersTitle(mode: MembersImportParams['mode'], sent: number, into: string, fileName: string) {
  return `${mode === 'dry-run' ? 'Dry run: put' : 'Put'} ${peopleCount(sent)} into ${into} (${fileName})`;
}

type Found = { group: Row } | { outcome: Outcome; message: string };

/** The tenant's groups of a kind, found by id or by name (names compared without case). */
function groupFinder(groups: Row[], groupDeclaration: ResourceDeclaration) {
  const byId = new Map(groups.map((group) => [String(group.id), group]));
  const byName = new Map<string, Row[]>();
  for (const group of groups) {
    const name = String(group.name ?? '').toLowerCase();
    byName.set(name, [...(byName.get(name) ?? []), group]);
  }
  const noun = groupDeclaration.singular;
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

const personWords = (person: BulkPerson) =>
  'email' in person
    ? `No person with the email ${person.email} on this tenant`
    : `No person "${person.username}" on this tenant`;

/** The kind's part of a run: its declarations and the kit's API over the tenant. */
async function membershipOf(run: PeopleRun<MembersImportParams>, profiles: Profiles) {
  const declaration = declarationOf(run.params.kind);
  const membership = declaration.membership!;
  const groupDeclaration = declarationOf(membership.groupKind);
  const api = new ResourceApi(run.client, await userScope(profiles, run.profileId));
  return { declaration, membership, groupDeclaration, api };
}

export function membersImportKind(deps: {
  profiles: Profiles;
  changed: (profileId: string, kind: ResourceKind) => void;
  finished?: (job: Job) => void;
}): JobKindRunner {
  type Tenant = Awaited<ReturnType<typeof membershipOf>> & { groups: Row[] };
  const kind: PeopleImport<MembersImportParams, MembersItemData, Row, Tenant> = {
    job: 'resource-members',
    columns: PAIR_COLUMNS,
    report: { header: ['row', 'person', 'group', 'result', 'message'], words: { wouldAdd: 'would add' } },
    async read(run) {
      const kit = await membershipOf(run, deps.profiles);
      run.ctx.progress(`Reading the ${kit.groupDeclaration.plural}`);
      return { ...kit, groups: await kit.api.list(kit.groupDeclaration, run.options) };
    },
    resolve(run, tenant, work) {
      const findGroup = groupFinder(tenant.groups, tenant.groupDeclaration);
      const settled: Settled[] = [];
      const found = [];
      for (const item of work) {
        const answer = findGroup(item.data.group);
        if ('outcome' in answer) settled.push({ item, outcome: answer.outcome, message: answer.message });
        else found.push({ item, target: answer.group });
      }
      // A row naming its group by id (or given the group of the details it was imported from) is reported by the
      // group's name: the report's rows keep it beside the cell.
      const named = new Map<string, number[]>();
      for (const { item, target } of found) {
        const name = typeof target.name === 'string' ? target.name : '';
        if (!name || name === item.data.group || item.data.groupName === name) continue;
        named.set(name, [...(named.get(name) ?? []), item.id]);
      }
      for (const [groupName, ids] of named) run.ctx.journal.updateItems(ids, { data: { groupName } });
      // The same person twice for one group is sent once.
      const { send, repeated } = settleRepeats(
        found,
        ({ item, target }) => `${String(target.id)}\n${personKey(item.data.person)}`,
      );
      // Every row into one group (a file imported from its details): the job is named by it, on its first run (which
      // has every row to send; a resumed one has those left), counting each person once.
      const groups = new Set(send.map(({ target }) => String(target.id)));
      if (run.ctx.handoff && groups.size === 1 && send[0]!.target.name) {
        const sent = send.length;
        run.ctx.journal.setTitle(
          run.ctx.job.id,
          membersTitle(run.params.mode, sent, String(send[0]!.target.name), run.params.fileName),
        );
      }
      return { settled: [...settled, ...repeated], send };
    },
    async dryRun(run, { api, declaration, membership }, send) {
      run.ctx.progress('Reading the tenant’s people and their memberships');
      const [people, members] = await Promise.all([
        readTenantPeople(run.client, run.org, run.options),
        api.list(declaration, run.options),
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
      const departments = membership.groupKind === 'departments';
      // Said in the order the rows are sent: by group, in file order within each.
      const byGroup = new Map<number, typeof send>();
      for (const row of send) {
        const id = Number(row.target.id);
        if (!byGroup.has(id)) byGroup.set(id, []);
        byGroup.get(id)!.push(row);
      }
      const results: Settled[] = [];
      for (const [id, rows] of byGroup) {
        for (const { item, target: group } of rows) {
          const key = personKey(item.data.person);
          if (!people.find(item.data.person))
            results.push({ item, outcome: 'unknown', message: personWords(bulkPersonOf(item.data.person)) });
          else if (groupsOf.get(key)?.has(id))
            results.push({ item, outcome: 'already', message: `Already in ${String(group.name)}` });
          else {
            // A person is in one department: adding them to another moves them.
            const elsewhere = departments ? [...(groupsOf.get(key) ?? [])][0] : undefined;
            results.push({
              item,
              outcome: 'wouldAdd',
              ...(elsewhere !== undefined && { message: `Would move from department ${elsewhere}` }),
            });
            groupsOf.set(key, new Set([...(departments ? [] : (groupsOf.get(key) ?? [])), id]));
          }
        }
      }
      return results;
    },
    sending: (run) =>
      `Putting people into ${declarationOf(declarationOf(run.params.kind).membership!.groupKind).plural}`,
    sender: {
      batch: MEMBERS_BATCH,
      group: (group) => Number(group.id),
      async bulk(run, batch) {
        const { membership } = declarationOf(run.params.kind);
        const group = batch[0]!.target;
        const people = batch.map(({ item }) => bulkPersonOf(item.data.person));
        const answer = await addMembers(run.client, run.org, membership!, Number(group.id), people, run.options);
        return answer.results.map((result, index): Settled => {
          const { item } = batch[index]!;
          if (result.status === 'added') return { item, outcome: 'added' };
          if (result.status === 'not_found') return { item, outcome: 'unknown', message: personWords(people[index]!) };
          if (item.resumed) return { item, outcome: 'added', message: 'Added before the import was interrupted' };
          return { item, outcome: 'already', message: `Already in ${String(group.name)}` };
        });
      },
    },
    refused(run, error) {
      const explained = explain(error, declarationOf(run.params.kind));
      const message = explained instanceof Error ? explained.message : String(explained);
      return { outcome: error instanceof ApiError && error.status === 400 ? 'invalid' : 'failed', message };
    },
    changed(run) {
      deps.changed(run.profileId, run.params.kind);
      deps.changed(run.profileId, declarationOf(run.params.kind).membership!.groupKind);
    },
  };
  return peopleImportJob(kind, deps);
}
