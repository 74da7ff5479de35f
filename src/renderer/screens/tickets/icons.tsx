/** A ticket stub (decorative; the navigation link carries the name). */
import { lineIcon } from '../../components/icons';

export const TicketIcon = lineIcon(
  'TicketIcon',
  <>
    <path d="M4 7a2 2 0 0 1 2-2h12a2 2 0 0 1 2 2v2a2 2 0 0 0 0 4v2a2 2 0 0 1-2 2H6a2 2 0 0 1-2-2v-2a2 2 0 0 0 0-4z" />
    <path d="M14 5v12" strokeDasharray="2 2" />
  </>,
);
