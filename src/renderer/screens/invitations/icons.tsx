/** The Invitations screen's sidebar icon: an envelope with a plus. */
import { lineIcon } from '../../components/icons';

export const InviteIcon = lineIcon(
  'InviteIcon',
  <>
    <path d="M13 19H5a2 2 0 0 1-2-2V7a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2v6" />
    <path d="M3 7l9 6 9-6M19 16v6M16 19h6" />
  </>,
);
