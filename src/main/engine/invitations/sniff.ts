/** Opening an invitations file: the shared sniffing (csv-import/sniff.ts) with the invitation columns. */
import type { InviteField } from '../../../shared/contract';
import { sniffWith, type Head, type SniffChoices as Choices } from '../csv-import';
import { inviteColumns } from './columns';
import { inviteHeaderClues } from './detect';
import type { ImportSettings } from './import-store';

export { readHead, type Head } from '../csv-import';
export type SniffChoices = Choices<InviteField>;

export function sniff(head: Head, choices: SniffChoices, memory: ReadonlyMap<string, string>): ImportSettings {
  return sniffWith(inviteColumns, inviteHeaderClues, head, choices, memory);
}
