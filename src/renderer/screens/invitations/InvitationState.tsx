import { Badge, Tooltip } from '@mantine/core';
import type { Invitation, InvitationState as State } from '../../../shared/contract';
import { formatDate } from '../../lib/format';

const LOOK: Record<State, { label: string; color: string }> = {
  pending: { label: 'Pending', color: 'blue' },
  accepted: { label: 'Accepted', color: 'teal' },
  expired: { label: 'Expired', color: 'orange' },
  inactive: { label: 'Inactive', color: 'gray' },
};

const day = (iso: string | null) => (iso ? formatDate(iso) : null);

/** What a state means for this invitation, in words (the badge alone says too little). */
export function stateExplanation(invitation: Invitation): string {
  switch (invitation.state) {
    case 'pending':
      return `Sent and not used yet. ${invitation.expiresAt ? `The link works until ${day(invitation.expiresAt)}.` : 'The link does not expire.'}`;
    case 'accepted':
      return `Used${invitation.username ? ` by ${invitation.username}` : ''}${invitation.startedAt ? ` on ${day(invitation.startedAt)}` : ''}: they have signed up.`;
    case 'expired':
      return `Its expiry date (${day(invitation.expiresAt)}) has passed: the link no longer works.${invitation.active ? '' : ' It was also switched off (revoked).'}`;
    case 'inactive':
      return 'Switched off (revoked, or created inactive): the link does not work until the invitation is active again.';
  }
}

/** The state as a badge that explains itself on hover and on keyboard focus. */
export function InvitationState({ invitation }: { invitation: Invitation }) {
  const look = LOOK[invitation.state];
  const why = stateExplanation(invitation);
  return (
    <Tooltip label={why} multiline maw={320} events={{ hover: true, focus: true, touch: true }}>
      <Badge
        color={look.color}
        variant="light"
        tabIndex={0}
        aria-label={`${look.label}: ${why}`}
        style={{ minWidth: 'max-content' }}
      >
        {look.label}
      </Badge>
    </Tooltip>
  );
}
