/**
 * Line icons for mentors, training and jobs, drawn like components/icons.tsx: inline SVG, decorative
 * (`aria-hidden`); the control around an icon carries its accessible name.
 */
import { lineIcon } from '../components/icons';

export const MentorIcon = lineIcon(
  'MentorIcon',
  <>
    <circle cx="12" cy="8" r="4" />
    <path d="M4 21a8 8 0 0 1 16 0" />
    <path d="M17.5 3.5l.6 1.4 1.4.6-1.4.6-.6 1.4-.6-1.4-1.4-.6 1.4-.6z" />
  </>,
);

export const JobsIcon = lineIcon(
  'JobsIcon',
  <>
    <path d="M4 6h16M4 12h10M4 18h7" />
    <circle cx="18" cy="16" r="3.5" />
    <path d="M18 14.5V16l1 1" />
  </>,
);

export const UploadIcon = lineIcon(
  'UploadIcon',
  <path d="M12 16V4M7 9l5-5 5 5M4 16v3a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-3" />,
);

export const FolderIcon = lineIcon(
  'FolderIcon',
  <path d="M3 7a2 2 0 0 1 2-2h4l2 2h8a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2z" />,
);

export const FileIcon = lineIcon(
  'FileIcon',
  <path d="M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8zM14 3v5h5M9 13h6M9 17h4" />,
);

export const RefreshIcon = lineIcon(
  'RefreshIcon',
  <path d="M20 11a8 8 0 0 0-14.6-4.5L4 8M4 4v4h4M4 13a8 8 0 0 0 14.6 4.5L20 16M20 20v-4h-4" />,
);

export const SearchIcon = lineIcon(
  'SearchIcon',
  <>
    <circle cx="11" cy="11" r="7" />
    <path d="M20 20l-3.5-3.5" />
  </>,
);

export const PauseIcon = lineIcon('PauseIcon', <path d="M8 5v14M16 5v14" />);
export const PlayIcon = lineIcon('PlayIcon', <path d="M7 4l13 8-13 8z" />);
export const StopIcon = lineIcon('StopIcon', <rect x="6" y="6" width="12" height="12" rx="1.5" />);
export const RetryIcon = lineIcon('RetryIcon', <path d="M4 12a8 8 0 1 0 2.3-5.6L4 8.5M4 4v4.5h4.5" />);
export const DownloadIcon = lineIcon('DownloadIcon', <path d="M12 4v12M7 11l5 5 5-5M4 20h16" />);
export const DotsIcon = lineIcon(
  'DotsIcon',
  <>
    <circle cx="5" cy="12" r="1" />
    <circle cx="12" cy="12" r="1" />
    <circle cx="19" cy="12" r="1" />
  </>,
);
export const ArrowLeftIcon = lineIcon('ArrowLeftIcon', <path d="M19 12H5M11 6l-6 6 6 6" />);
export const SparkIcon = lineIcon('SparkIcon', <path d="M12 3l1.8 5.2L19 10l-5.2 1.8L12 17l-1.8-5.2L5 10l5.2-1.8z" />);
