/**
 * The `badge-assertions` job: a CSV list of people (an email or username per row) to whom one badge is issued, one
 * journal item per row, read with the CSV pipeline every import shares (encoding, delimiter, header and the person
 * column detected as in a membership import). It runs as the membership import does: rows sent in bulk batches, each
 * person's answer settling their row (issued, already held, unknown), a dry run that sends nothing and says what each
 * row would do, and a per-row report.
 *
 * Idempotent: the platform's bulk issue skips people who hold the badge. A batch left `sending` by a killed run is sent
 * again; its people who then hold the badge were issued by this import before it stopped.
 */
import { stat } from 'node:fs/promises';
import { PERSON_SYNONYMS } from '../../../shared/resources';
import { columnMatcher, readHead, sniffWith, streamRecords } from '../csv-import';
import type { ItemReport, JobContext, JobKindRunner, JobJournal, NewItem, WorkItem } from '../jobs';
import { UNFINISHED_STATES } from '../jobs';
import { ApiError, isTransient, RequestAbortedError, type PlatformClient } from '../platform';
import type { Profiles } from '../profiles';
import { userScope } from '../tenants';
import { ISSUE_BATCH, readAssertions, readUserIds, refusal } from './read';

export interface BadgeImportParams {
  badge: string;
  fileName: string;
  fileSha256: string;
  rows: number;
  mode: 'send' | 'dry-run';
}
type ItemData = {
  line: number;
  person: string;
  message?: string;
};
type Outcome = 'issued' | 'wouldIssue' | 'already' | 'unknown' | 'invalid' | 'failed';
const SENDING = 'sending';

/** Reads the file's person column: one row per record below the header, its line as the file counts it. */
export async function readPeopleFile(path: string): Promise<{ rows: ItemData[]; sha256: string; fileName: string }> {
  const size = (await stat(path)).size;
  const matcher = columnMatcher([{ name: 'person' as const, synonyms: PERSON_SYNONYMS }]);
  const head = await readHead(path, size);
  const settings = sniffWith(
    matcher,
    { isKnownHeader: (cell) => matcher.fieldForHeader(cell) !== null, isData: (cell) => cell.includes('@') },
    head,
    {},
    new Map(),
  );
  const column = settings.mapping.indexOf('person');
  const index = column >= 0 ? column : 0;
  const rows: ItemData[] = [];
  const read = await streamRecords(path, settings, ({ records, first }) => {
    records.forEach((record, i) => {
      const at = first + i;
      if (settings.headerRow !== null && at <= settings.headerRow) return;
      if (record.every((cell) => !cell.trim())) return;
      rows.push({ line: at + 1, person: (record[index] ?? '').trim() });
    });
  });
  return { rows, sha256: read.sha256, fileName: path.split(/[\\/]/).pop() ?? path };
}

/** Writes the job (rows with no person settled at once) and starts it; an unfinished one for the same file resumes. */
export function startBadgeImport(
  ctx: { journal: JobJournal; runner: { start(id: string): void } },
  profileId: string,
  badge: string,
  file: { rows: ItemData[]; sha256: string; fileName: string },
  mode: BadgeImportParams['mode'],
): { id: string; resumed: boolean } {
  const { journal, runner } = ctx;
  const [unfinished] = journal.find({
    kind: 'badge-assertions',
    profileId,
    states: UNFINISHED_STATES,
    params: { badge, fileSha256: file.sha256, mode },
  });
  if (unfinished) {
    runner.start(unfinished.id);
    return { id: unfinished.id, resumed: true };
  }
  let invalid = 0;
  function* items(): Generator<NewItem> {
    for (const row of file.rows) {
      const base = { key: `line:${row.line}`, label: row.person || '?' };
      if (!row.person) {
        invalid++;
        yield { ...base, state: 'skipped', phase: 'invalid', data: { ...row, message: 'No email or username' } };
      } else yield { ...base, state: 'pending', phase: '', data: row };
    }
  }
  const params: BadgeImportParams = {
    badge,
    fileName: file.fileName,
    fileSha256: file.sha256,
    rows: file.rows.length,
    mode,
  };
  const id = journal.transaction(() => {
    const jobId = journal.create({
      kind: 'badge-assertions',
      profileId,
      title: `${mode === 'dry-run' ? 'Dry run: issue' : 'Issue'} a badge to ${file.rows.length.toLocaleString('en-US')} people (${file.fileName})`,
      params,
      items: items(),
    });
    journal.addCounts(jobId, { invalid });
    return jobId;
  });
  runner.start(id);
  return { id, resumed: false };
}

const endsRun = (error: unknown) =>
  error instanceof RequestAbortedError ||
  isTransient(error) ||
  (error instanceof ApiError && (error.status === 401 || error.status === 403));

const personKey = (person: string) => (person.includes('@') ? person.toLowerCase() : person);

export function badgeImportKind(deps: { profiles: Profiles }): JobKindRunner {
  return {
    kind: 'badge-assertions',
    bulkWrites: true,
    report: badgeImportReport,
    async run(ctx: JobContext) {
      const params = ctx.params as BadgeImportParams;
      const { journal } = ctx;
      const profileId = ctx.job.profile_id ?? '';
      const client: PlatformClient = await ctx.client();
      const scope = await userScope(deps.profiles, profileId);
      const path = { org: scope.org, user_id: scope.username };
      const options = { signal: ctx.signal };
      const settle = (results: { item: WorkItem; outcome: Outcome; message?: string }[]) => {
        if (!results.length) return;
        const counts: Record<string, number> = {};
        journal.transaction(() => {
          for (const { item, outcome, message } of results) {
            counts[outcome] = (counts[outcome] ?? 0) + 1;
            const data = { ...(JSON.parse(item.data) as ItemData), ...(message !== undefined && { message }) };
            journal.updateItems([item.id], {
              state: outcome === 'failed' ? 'failed' : ['unknown', 'invalid'].includes(outcome) ? 'skipped' : 'done',
              phase: outcome,
              error: outcome === 'failed' ? (message ?? 'Failed') : null,
              data,
            });
          }
          journal.addCounts(ctx.job.id, counts);
        });
      };

      ctx.progress('Reading the tenant’s people and the badge’s holders');
      let people: Map<string, { id: number; email: string; username: string }>;
      let holders: Set<string>;
      try {
        const [ids, assertions] = await Promise.all([
          readUserIds(client, scope.org, options),
          readAssertions(client, path, params.badge, options),
        ]);
        people = new Map();
        for (const [username, user] of ids) {
          const person = { ...user, username };
          people.set(username, person);
          if (user.email) people.set(user.email.toLowerCase(), person);
        }
        const emailOf = new Map([...ids].map(([username, user]) => [username, user.email.toLowerCase()]));
        holders = new Set(
          assertions
            .filter((a) => !a.revoked)
            .flatMap((a) => [a.username, a.email.toLowerCase(), emailOf.get(a.username) ?? '']),
        );
      } catch (error) {
        if (endsRun(error)) throw error;
        throw refusal(error, 'Could not read the badge');
      }
      const pending = journal.workIn(ctx.job.id, ['pending', 'active']);
      const data = (item: WorkItem) => JSON.parse(item.data) as ItemData;
      const unknown = pending.filter((item) => !people.has(personKey(data(item).person)));
      settle(
        unknown.map((item) => ({
          item,
          outcome: 'unknown',
          message: `No person "${data(item).person}" on this tenant`,
        })),
      );
      const known = pending.filter((item) => people.has(personKey(data(item).person)));
      if (params.mode === 'dry-run') {
        const seen = new Set<string>();
        settle(
          known.map((item) => {
            // A person named twice (by email and by username) is issued once.
            const user = people.get(personKey(data(item).person))!;
            const already = holders.has(user.username) || seen.has(user.username);
            seen.add(user.username);
            return already
              ? { item, outcome: 'already', message: 'Holds the badge already' }
              : { item, outcome: 'wouldIssue' };
          }),
        );
        return;
      }
      ctx.progress('Issuing the badge');
      for (let start = 0; start < known.length; start += ISSUE_BATCH) {
        if (ctx.signal.aborted) throw new RequestAbortedError();
        const batch = known.slice(start, start + ISSUE_BATCH);
        const resumed = new Set(batch.filter((item) => item.phase === SENDING).map((item) => item.id));
        journal.updateItems(
          batch.filter((item) => !resumed.has(item.id)).map((item) => item.id),
          { phase: SENDING },
        );
        try {
          const { data: answer } = await client.api.POST(
            '/api/credentials/orgs/{org}/users/{user_id}/{entity_id}/assertions/bulk/',
            {
              params: { path: { ...path, entity_id: params.badge } },
              body: { users: batch.map((item) => data(item).person) } as never,
              ...options,
            },
          );
          const issued = new Set(((answer as { issued?: unknown[] } | undefined)?.issued ?? []).map(String));
          settle(
            batch.map((item) => {
              const person = data(item).person;
              if (issued.has(person)) return { item, outcome: 'issued' as const };
              if (resumed.has(item.id))
                return { item, outcome: 'issued' as const, message: 'Issued before the import was interrupted' };
              return { item, outcome: 'already' as const, message: 'Holds the badge already' };
            }),
          );
        } catch (error) {
          if (endsRun(error)) throw error;
          const explained = refusal(error, 'The platform refused to issue the badge');
          const message = explained instanceof Error ? explained.message : String(explained);
          settle(batch.map((item) => ({ item, outcome: 'failed', message })));
        }
        ctx.progress();
      }
    },
  };
}

const RESULTS: Record<string, string> = { wouldIssue: 'would issue' };

/** One line per input row, in file order (the journal's CSV writer makes every cell safe for spreadsheets). */
export const badgeImportReport: ItemReport = {
  header: ['row', 'person', 'result', 'message'],
  row(item) {
    const data = JSON.parse(item.data) as ItemData;
    const result =
      item.state === 'pending' || item.state === 'active' ? 'not sent' : (RESULTS[item.phase] ?? item.phase);
    return [data.line, data.person, result, item.error ?? data.message ?? ''];
  },
};
