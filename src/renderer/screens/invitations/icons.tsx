/** The Invitations screen's sidebar icon: an envelope with a plus (drawn inline, like the app's other icons). */
import type { IconProps } from '../../components/icons';

export function InviteIcon({ size = 18 }: IconProps) {
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
      <path d="M13 19H5a2 2 0 0 1-2-2V7a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2v6" />
      <path d="M3 7l9 6 9-6M19 16v6M16 19h6" />
    </svg>
  );
}
