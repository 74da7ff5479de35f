/** The report of an invite job: one line per input row, in file order, with what happened and why. */
import type { ItemReport } from '../jobs';
import type { InviteItemData } from './job';

const RESULTS: Record<string, string> = {
  invited: 'invited',
  already_invited: 'already invited',
  already_member: 'already a member',
  invalid: 'invalid',
  duplicate: 'duplicate',
  dropped: 'dropped',
  failed: 'failed',
};

export const inviteReport: ItemReport = {
  header: ['row', 'email', 'first_name', 'last_name', 'result', 'message'],
  row(item) {
    const data = JSON.parse(item.data) as InviteItemData;
    const result =
      item.state === 'pending' || item.state === 'active' ? 'not sent' : (RESULTS[item.phase] ?? item.phase);
    return [
      data.line,
      data.email,
      data.fields?.first_name ?? '',
      data.fields?.last_name ?? '',
      result,
      item.error ?? data.message ?? '',
    ];
  },
};
