import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import { newTicketsNote, NO_TICKET_NOTES, lookedAgain, type DesktopNote } from '../../shared/desktop-notify';
import { useBridge } from '../bridge/BridgeContext';
import { notifyError } from '../components/notify';
import { callKey, useCall, useMutationCall } from '../queries/useCall';
import { navigateTo } from './routes';

const pageNotificationsAllowed = () => typeof Notification !== 'undefined' && Notification.permission === 'granted';

/** The window is shown and focused: the admin sees the badge and the queue, so the desktop says nothing. */
export const lookingAtWindow = () => !document.hidden && document.hasFocus();

/**
 * The opt-in switch, kept in the app's settings. In the desktop app the shell shows the notifications (the window
 * itself is refused every permission); in a browser the page does, once the browser grants permission.
 */
export function useDesktopNotifications() {
  const bridge = useBridge();
  const settings = useCall('settings.get', {});
  const save = useMutationCall('settings.set');
  const queryClient = useQueryClient();
  const shellNotifies = bridge.capabilities.notifications;
  const saved = settings.data?.notifyNewTickets ?? false;
  const enabled = (save.isPending ? save.variables?.notifyNewTickets : undefined) ?? saved;
  const setEnabled = useCallback(
    async (on: boolean) => {
      if (on && !shellNotifies) {
        const permission =
          typeof Notification === 'undefined'
            ? 'denied'
            : Notification.permission === 'granted'
              ? 'granted'
              : await Notification.requestPermission().catch(() => 'denied' as const);
        if (permission !== 'granted') {
          notifyError(
            'Desktop notifications are blocked',
            'Allow notifications for Mentor Admin in the system or browser settings, then try again.',
          );
          return;
        }
      }
      save.mutate(
        { notifyNewTickets: on },
        {
          onSuccess: (next) => queryClient.setQueryData(callKey('settings.get', {}), next),
          onError: (error) => notifyError('Notification setting not saved', error),
        },
      );
    },
    [save, queryClient, shellNotifies],
  );
  return { enabled, setEnabled };
}

function showInPage(note: DesktopNote): Notification {
  const shown = new Notification(note.title, { body: note.body, tag: note.tag, silent: note.silent });
  shown.onclick = () => {
    window.focus();
    navigateTo(note.href);
    shown.close();
  };
  return shown;
}

/**
 * Browser mode: a desktop notification for new tickets when the admin opted in and is looking elsewhere, gathered
 * into one while they stay away (the same decisions the desktop app's shell makes). In the desktop app the shell
 * notifies instead.
 */
export function useNewTicketNotifier(): void {
  const bridge = useBridge();
  const settings = useCall('settings.get', {});
  const enabled = settings.data?.notifyNewTickets ?? false;
  const state = useRef(NO_TICKET_NOTES);
  const shown = useRef<Notification | null>(null);
  useEffect(() => {
    if (bridge.capabilities.notifications) return;
    const seen = () => {
      state.current = lookedAgain(state.current);
      shown.current?.close();
      shown.current = null;
    };
    window.addEventListener('focus', seen);
    const off = bridge.onEvent((event) => {
      if (event.name !== 'tickets.new') return;
      const decided = newTicketsNote(state.current, event.payload.tickets, {
        enabled: enabled && pageNotificationsAllowed(),
        looking: lookingAtWindow(),
        now: Date.now(),
      });
      state.current = decided.state;
      if (!decided.note) return;
      shown.current?.close();
      shown.current = showInPage(decided.note);
    });
    return () => {
      window.removeEventListener('focus', seen);
      off();
    };
  }, [bridge, enabled]);
}
