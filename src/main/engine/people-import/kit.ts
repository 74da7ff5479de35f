/**
 * People files read by the kit's import pipeline (resources.import on a kind: memberships, enrolments, suggestions):
 * each row names a person and what they go into (a group, a catalogue item), and the job's params name the kind.
 */
import type { JobKind } from '../../../shared/contract';
import type { ResourceKind } from '../../../shared/resources';
import type { JobJournal } from '../jobs';
import { startPeopleImport, type ImportMode, type PeopleRow } from './job';

export interface KitImportParams extends ImportMode {
  kind: ResourceKind;
  fileName: string;
  fileSha256: string;
  rows: number;
}

/** A row's person (email or username) and what they go into (a group's or an item's name or id), as the row gives them. */
export type PairItemData = { line: number; person: string; group: string; groupName?: string; message?: string };

export const PAIR_COLUMNS = ['person', 'group'] as const;

/** "1 person", "1,200 people". */
export const peopleCount = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'person' : 'people'}`;

/**
 * Writes a kit kind's people-file job and starts it; an unfinished one for the same kind, file, mode (and `extra`
 * params, a membership file's default group) resumes instead.
 */
export function startKitImport(
  ctx: { journal: JobJournal; runner: { start(id: string, options?: { handoff?: unknown }): unknown } },
  job: JobKind,
  file: {
    profileId: string;
    kind: ResourceKind;
    fileName: string;
    sha256: string;
    rows: readonly PeopleRow[];
  } & ImportMode,
  words: { label: (data: PairItemData) => string; title: (sent: number) => string },
  extra: Record<string, string> = {},
): { id: string; resumed: boolean } {
  const { profileId, kind, fileName, sha256, rows, mode } = file;
  const params: KitImportParams = { kind, fileName, fileSha256: sha256, rows: rows.length, mode, ...extra };
  return startPeopleImport<PairItemData>(ctx, {
    kind: job,
    profileId,
    same: { kind, fileSha256: sha256, mode, ...extra },
    params,
    columns: PAIR_COLUMNS,
    rows,
    ...words,
  });
}
