/**
 * The `badge-assertions` job: a CSV list of people (an email or username per row) to whom one badge is issued, on the
 * people-file import job (people-import/): rows sent in bulk batches, each person's answer settling their row
 * (issued, already held, unknown), a dry run that sends nothing and says what each row would do, and a per-row report.
 *
 * Idempotent: the platform's bulk issue skips people who hold the badge. A batch a killed run left in flight is sent
 * again; its people who then hold the badge were issued by this import before it stopped.
 */
import type { JobKindRunner, JobJournal } from '../jobs';
import {
  endsRun,
  peopleImportJob,
  readTenantPeople,
  startPeopleImport,
  type PeopleFile,
  type PeopleImport,
  type Sendable,
  type Settled,
  type TenantPeople,
} from '../people-import';
import type { Profiles } from '../profiles';
import { ISSUE_BATCH, readAssertions, refusal } from './read';

export interface BadgeImportParams {
  badge: string;
  fileName: string;
  fileSha256: string;
  rows: number;
  mode: 'send' | 'dry-run';
}
type ItemData = { line: number; person: string; message?: string };

const COLUMNS = ['person'] as const;

/** Writes the job (rows with no person settled at once) and starts it; an unfinished one for the same file resumes. */
export function startBadgeImport(
  ctx: { journal: JobJournal; runner: { start(id: string): void } },
  profileId: string,
  badge: string,
  file: PeopleFile,
  mode: BadgeImportParams['mode'],
): { id: string; resumed: boolean } {
  const params: BadgeImportParams = {
    badge,
    fileName: file.fileName,
    fileSha256: file.sha256,
    rows: file.rows.length,
    mode,
  };
  return startPeopleImport<ItemData>(ctx, {
    kind: 'badge-assertions',
    profileId,
    same: { badge, fileSha256: file.sha256, mode },
    params,
    columns: COLUMNS,
    rows: file.rows,
    label: (data) => data.person || '?',
    title: (_sent, rows) =>
      `${mode === 'dry-run' ? 'Dry run: issue' : 'Issue'} a badge to ${rows.toLocaleString('en-US')} people (${file.fileName})`,
  });
}

export function badgeImportKind(deps: { profiles: Profiles }): JobKindRunner {
  type Tenant = { people: TenantPeople; holders: Set<string> };
  const kind: PeopleImport<BadgeImportParams, ItemData, string, Tenant> = {
    job: 'badge-assertions',
    columns: COLUMNS,
    phases: { added: 'issued', wouldAdd: 'wouldIssue' },
    report: { header: ['row', 'person', 'result', 'message'], words: { wouldIssue: 'would issue' } },
    async read({ ctx, client, org, username, params, options }) {
      ctx.progress('Reading the tenant’s people and the badge’s holders');
      try {
        const [people, assertions] = await Promise.all([
          readTenantPeople(client, org, options),
          readAssertions(client, { org, user_id: username }, params.badge, options),
        ]);
        const holders = new Set(
          assertions
            .filter((a) => !a.revoked)
            .flatMap((a) => [a.username, a.email.toLowerCase(), people.find(a.username)?.email.toLowerCase() ?? '']),
        );
        return { people, holders };
      } catch (error) {
        if (endsRun(error)) throw error;
        throw refusal(error, 'Could not read the badge');
      }
    },
    resolve(_run, { people }, work) {
      const settled: Settled[] = [];
      const send: Sendable<ItemData, string>[] = [];
      for (const item of work) {
        const username = people.find(item.data.person)?.username;
        if (username) send.push({ item, target: username });
        else settled.push({ item, outcome: 'unknown', message: `No person "${item.data.person}" on this tenant` });
      }
      return { settled, send };
    },
    dryRun(_run, { holders }, send) {
      // A person named twice (by email and by username) is issued once.
      const seen = new Set<string>();
      return send.map(({ item, target: username }): Settled => {
        const already = holders.has(username) || seen.has(username);
        seen.add(username);
        return already
          ? { item, outcome: 'already', message: 'Holds the badge already' }
          : { item, outcome: 'wouldAdd' };
      });
    },
    sending: () => 'Issuing the badge',
    sender: {
      batch: ISSUE_BATCH,
      async bulk({ client, org, username, params, options }, batch) {
        const { data: answer } = await client.api.POST(
          '/api/credentials/orgs/{org}/users/{user_id}/{entity_id}/assertions/bulk/',
          {
            params: { path: { org, user_id: username, entity_id: params.badge } },
            body: { users: batch.map(({ item }) => item.data.person) } as never,
            ...options,
          },
        );
        const issued = new Set(((answer as { issued?: unknown[] } | undefined)?.issued ?? []).map(String));
        return batch.map(({ item }): Settled => {
          if (issued.has(item.data.person)) return { item, outcome: 'added' };
          if (item.resumed) return { item, outcome: 'added', message: 'Issued before the import was interrupted' };
          return { item, outcome: 'already', message: 'Holds the badge already' };
        });
      },
    },
    refused(_run, error) {
      const explained = refusal(error, 'The platform refused to issue the badge');
      return { outcome: 'failed', message: explained instanceof Error ? explained.message : String(explained) };
    },
  };
  return peopleImportJob(kind, deps);
}
