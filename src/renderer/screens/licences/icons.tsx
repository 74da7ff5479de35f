import { lineIcon } from '../../components/icons';

export const LicenceIcon = lineIcon(
  'LicenceIcon',
  <path d="M4 7a2 2 0 0 1 2-2h12a2 2 0 0 1 2 2v2a2 2 0 0 0 0 6v2a2 2 0 0 1-2 2H6a2 2 0 0 1-2-2v-2a2 2 0 0 0 0-6zM14 5v2M14 11v2M14 17v2" />,
);
