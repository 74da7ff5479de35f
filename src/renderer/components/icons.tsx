/**
 * A handful of line icons drawn inline: no icon package, no remote assets (the CSP allows neither).
 * Icons are decorative (`aria-hidden`); the control around them carries the accessible name.
 */
import type { ReactNode } from 'react';

export interface IconProps {
  size?: number;
}

/** Every icon of the app is built here, so they share one size, stroke and accessibility treatment. */
export function lineIcon(displayName: string, shapes: ReactNode) {
  function Icon({ size = 18 }: IconProps) {
    return (
      <svg
        width={size}
        height={size}
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth={1.8}
        strokeLinecap="round"
        strokeLinejoin="round"
        aria-hidden="true"
        focusable="false"
      >
        {shapes}
      </svg>
    );
  }
  Icon.displayName = displayName;
  return Icon;
}

export const SettingsIcon = lineIcon(
  'SettingsIcon',
  <>
    <path d="M4 6h8M16 6h4M4 12h2M10 12h10M4 18h11M19 18h1" />
    <circle cx="14" cy="6" r="2" />
    <circle cx="8" cy="12" r="2" />
    <circle cx="17" cy="18" r="2" />
  </>,
);

export const EditIcon = lineIcon('EditIcon', <path d="M4 20h4L18.5 9.5a2.83 2.83 0 0 0-4-4L4 16v4M13.5 6.5l4 4" />);

export const TrashIcon = lineIcon(
  'TrashIcon',
  <path d="M4 7h16M10 11v6M14 11v6M5 7l1 12a2 2 0 0 0 2 2h8a2 2 0 0 0 2-2l1-12M9 7V4a1 1 0 0 1 1-1h4a1 1 0 0 1 1 1v3" />,
);

export const PlusIcon = lineIcon('PlusIcon', <path d="M12 5v14M5 12h14" />);

export const TenantIcon = lineIcon(
  'TenantIcon',
  <path d="M3 21h18M5 21V7l8-4v18M19 21V11l-6-4M9 9v.01M9 12v.01M9 15v.01M9 18v.01" />,
);

export const PlugIcon = lineIcon(
  'PlugIcon',
  <path d="M7 12l5 5-1.5 1.5a3.54 3.54 0 0 1-5-5L7 12zM17 12l-5-5 1.5-1.5a3.54 3.54 0 0 1 5 5L17 12zM3 21l2.5-2.5M18.5 5.5L21 3M10 11l-2 2M13 14l-2 2" />,
);

export const WarningIcon = lineIcon(
  'WarningIcon',
  <path d="M12 9v4M12 16h.01M10.36 3.59L2.26 17.13A1.91 1.91 0 0 0 3.9 20h16.2a1.91 1.91 0 0 0 1.64-2.87L13.64 3.59a1.91 1.91 0 0 0-3.28 0z" />,
);

export const CheckCircleIcon = lineIcon(
  'CheckCircleIcon',
  <>
    <circle cx="12" cy="12" r="9" />
    <path d="M9 12l2 2 4-4" />
  </>,
);

export const CloudOffIcon = lineIcon(
  'CloudOffIcon',
  <path d="M3 3l18 18M18 18H7a4.6 4.4 0 0 1-.88-8.7M8.6 5.2A5.5 5.5 0 0 1 16.9 9H18a3.5 3.5 0 0 1 2.3 6.1" />,
);

export const StarIcon = lineIcon(
  'StarIcon',
  <path d="M12 17.75l-6.17 3.24 1.18-6.87-5-4.86 6.9-1 3.09-6.26 3.09 6.26 6.9 1-5 4.86 1.18 6.87z" />,
);

/** The app mark: a speech bubble with a spark, for "AI mentoring". */
export const AppMark = lineIcon(
  'AppMark',
  <>
    <path d="M4 20l1.4-4A8 8 0 1 1 8.4 18.7L4 20z" />
    <path d="M12 7.5l1 2.5 2.5 1-2.5 1-1 2.5-1-2.5-2.5-1 2.5-1z" />
  </>,
);

/** A panel edge with an arrow: collapse (pointing left) or expand (pointing right) the sidebar. */
export const CollapseIcon = lineIcon(
  'CollapseIcon',
  <>
    <rect x="3.5" y="4.5" width="17" height="15" rx="2" />
    <path d="M9 4.5v15M16 9.5 13.5 12l2.5 2.5" />
  </>,
);
export const ExpandIcon = lineIcon(
  'ExpandIcon',
  <>
    <rect x="3.5" y="4.5" width="17" height="15" rx="2" />
    <path d="M9 4.5v15M13.5 9.5 16 12l-2.5 2.5" />
  </>,
);

// Mentors, training and jobs.

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

export const CalendarIcon = lineIcon(
  'CalendarIcon',
  <path d="M5 6h14a1 1 0 0 1 1 1v12a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1zM4 10h16M8 4v4M16 4v4" />,
);

export const PauseIcon = lineIcon('PauseIcon', <path d="M8 5v14M16 5v14" />);
export const PlayIcon = lineIcon('PlayIcon', <path d="M7 4l13 8-13 8z" />);
export const StopIcon = lineIcon('StopIcon', <rect x="6" y="6" width="12" height="12" rx="1.5" />);
export const RetryIcon = lineIcon('RetryIcon', <path d="M4 12a8 8 0 1 0 2.3-5.6L4 8.5M4 4v4.5h4.5" />);
export const CopyIcon = lineIcon('CopyIcon', <path d="M9 9h10v10H9zM5 15V5h10" />);
/** A branch: a new mentor grown from this one (Fork), where Copy's two sheets mean the same mentor elsewhere. */
export const ForkIcon = lineIcon(
  'ForkIcon',
  <>
    <circle cx="6" cy="5" r="2" />
    <circle cx="18" cy="5" r="2" />
    <circle cx="12" cy="19" r="2" />
    <path d="M6 7v2a3 3 0 0 0 3 3h6a3 3 0 0 0 3-3V7M12 12v5" />
  </>,
);
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
export const ChevronLeftIcon = lineIcon('ChevronLeftIcon', <path d="M15 6l-6 6 6 6" />);
export const ChevronRightIcon = lineIcon('ChevronRightIcon', <path d="M9 6l6 6-6 6" />);
export const SparkIcon = lineIcon('SparkIcon', <path d="M12 3l1.8 5.2L19 10l-5.2 1.8L12 17l-1.8-5.2L5 10l5.2-1.8z" />);
