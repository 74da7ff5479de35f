/** Line icons for the analytics screens, drawn inline like the rest of the app's icons. */
import { lineIcon } from '../../components/icons';

export const ChartIcon = lineIcon('ChartIcon', <path d="M4 20V4M4 20h16M8 16v-5M12 16V8M16 16v-3M20 16V6" />);
export const ExportIcon = lineIcon('ExportIcon', <path d="M12 3v12M7 8l5-5 5 5M5 14v5h14v-5" />);
export const TableIcon = lineIcon('TableIcon', <path d="M4 5h16v14H4zM4 10h16M4 15h16M10 5v14" />);
export const DownloadIcon = lineIcon('DownloadIcon', <path d="M12 4v11M7 10l5 5 5-5M5 19h14" />);
export const FolderOpenIcon = lineIcon('FolderOpenIcon', <path d="M3 7h6l2 2h10v9H3zM3 7v11" />);
export const ClockIcon = lineIcon(
  'ClockIcon',
  <>
    <circle cx="12" cy="12" r="8" />
    <path d="M12 8v4l3 2" />
  </>,
);
export const ChatIcon = lineIcon('ChatIcon', <path d="M5 5h14v10H9l-4 4z" />);
