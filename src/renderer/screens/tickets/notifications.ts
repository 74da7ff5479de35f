import { useCallback, useEffect, useState } from 'react';
import { useBridge } from '../../bridge/BridgeContext';
import { notifyError } from '../../components/notify';

const KEY = 'mentor-admin.tickets.notify';

function enabledNow(): boolean {
  return (
    typeof Notification !== 'undefined' && Notification.permission === 'granted' && localStorage.getItem(KEY) === '1'
  );
}

/** The opt-in switch: off until the admin turns it on (and the system grants permission). */
export function useDesktopNotifications() {
  const [enabled, setState] = useState(enabledNow);
  const setEnabled = useCallback(async (on: boolean) => {
    if (!on || typeof Notification === 'undefined') {
      localStorage.removeItem(KEY);
      setState(false);
      return;
    }
    const permission = Notification.permission === 'granted' ? 'granted' : await Notification.requestPermission();
    if (permission === 'granted') localStorage.setItem(KEY, '1');
    else
      notifyError(
        'Desktop notifications are blocked',
        'Allow notifications for Mentor Admin in the system or browser settings, then try again.',
      );
    setState(permission === 'granted');
  }, []);
  return { enabled, setEnabled };
}

/** A desktop notification for each batch of new tickets, when the admin opted in. */
export function useNewTicketNotifier(): void {
  const bridge = useBridge();
  useEffect(
    () =>
      bridge.onEvent((event) => {
        if (event.name !== 'tickets.new' || !event.payload.tickets.length || !enabledNow()) return;
        const [first] = event.payload.tickets;
        const more = event.payload.tickets.length - 1;
        const note = new Notification(more ? `${more + 1} new support tickets` : 'New support ticket', {
          body: `${first!.subject} — ${first!.requester}${more ? ` and ${more} more` : ''}`,
          tag: 'mentor-admin-tickets',
        });
        note.onclick = () => {
          window.focus();
          window.location.hash = '/tickets';
        };
      }),
    [bridge],
  );
}
