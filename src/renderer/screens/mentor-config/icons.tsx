import { lineIcon } from '../../components/icons';

/** Stacked layers: what every mentor of the tenant is built on. */
export const MentorConfigIcon = lineIcon(
  'MentorConfigIcon',
  <path d="M12 4l8 4-8 4-8-4 8-4M4 12l8 4 8-4M4 16l8 4 8-4" />,
);
