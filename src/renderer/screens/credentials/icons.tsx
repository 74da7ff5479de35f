/** The Credentials screen's sidebar icon: a rosette (a badge with two ribbons). */
import { lineIcon } from '../../components/icons';

export const BadgeIcon = lineIcon(
  'BadgeIcon',
  <>
    <circle cx="12" cy="9" r="6" />
    <path d="M8.5 14 7 22l5-3 5 3-1.5-8" />
  </>,
);
