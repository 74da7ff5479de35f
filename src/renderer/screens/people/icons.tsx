import { lineIcon } from '../../components/icons';

export const PeopleIcon = lineIcon(
  'PeopleIcon',
  <path d="M16 19v-1.5a3.5 3.5 0 0 0-3.5-3.5h-5A3.5 3.5 0 0 0 4 17.5V19M10 10.5a3 3 0 1 0 0-6 3 3 0 0 0 0 6M20 19v-1.5a3.5 3.5 0 0 0-2.5-3.35M15.5 4.65a3 3 0 0 1 0 5.7" />,
);
