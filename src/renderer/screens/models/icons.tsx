import { lineIcon } from '../../components/icons';

export const KeyIcon = lineIcon(
  'KeyIcon',
  <path d="M14.5 9.5a4.5 4.5 0 1 1-3.1-4.28M14.5 9.5L21 16v3h-3v-2h-2v-2h-2l-1.6-1.6M9.5 9.5h.01" />,
);
