import { lineIcon } from '../../components/icons';

/** An open book: the catalogue's courses, pathways and programs. */
export const CatalogueIcon = lineIcon(
  'CatalogueIcon',
  <path d="M12 6.5C10.5 5.2 8.3 4.5 6 4.5c-.7 0-1.4.06-2 .2v13.8c.6-.14 1.3-.2 2-.2 2.3 0 4.5.7 6 2 1.5-1.3 3.7-2 6-2 .7 0 1.4.06 2 .2V4.7c-.6-.14-1.3-.2-2-.2-2.3 0-4.5.7-6 2ZM12 6.5v14" />,
);
