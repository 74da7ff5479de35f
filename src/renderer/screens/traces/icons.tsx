/** A pulse line: the traces screen (decorative; the navigation link carries the name). */
import { lineIcon } from '../../components/icons';

export const TracesIcon = lineIcon('TracesIcon', <path d="M3 12h4l3-7 4 14 3-7h4" />);
