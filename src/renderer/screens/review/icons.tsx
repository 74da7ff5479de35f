/** A shield with a check: the review queue (decorative; the navigation link carries the name). */
import { lineIcon } from '../../components/icons';

export const ReviewIcon = lineIcon(
  'ReviewIcon',
  <>
    <path d="M12 3l7 3v6c0 4.2-3 7.5-7 9-4-1.5-7-4.8-7-9V6l7-3z" />
    <path d="M9 12l2 2 4-4" />
  </>,
);
