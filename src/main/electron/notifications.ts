/** Electron's side of the desktop notifications: shows what `notifier.ts` decided, as plain text. */
import { Notification } from 'electron';
import type { DesktopNote } from '../../shared/desktop-notify';
import type { ShownNote } from './notifier';

/** Notifications are kept referenced until closed: a collected one loses its click handler. */
const live = new Set<Notification>();

/** `icon`: a PNG path (Linux and Windows show it; macOS shows the app's icon). */
export function showNotification(note: DesktopNote, onClick: () => void, icon?: string): ShownNote {
  if (!Notification.isSupported()) return { close() {} };
  const notification = new Notification({
    title: note.title,
    body: note.body,
    silent: note.silent,
    ...(icon && { icon }),
    // Windows groups them under the app's name in Action Center; macOS threads them by kind.
    groupId: note.tag,
  });
  live.add(notification);
  notification.on('click', () => onClick());
  notification.on('close', () => live.delete(notification));
  notification.on('failed', (_event, error) => {
    live.delete(notification);
    console.warn('A desktop notification could not be shown:', error);
  });
  notification.show();
  return {
    close() {
      live.delete(notification);
      notification.close();
    },
  };
}
