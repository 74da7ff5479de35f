import { Badge } from '@mantine/core';
import { useCall } from '../../queries/useCall';
import { useNewTicketNotifier } from '../../shell/ticketNotifications';
import { useWatchTickets } from './watch';

/**
 * The sidebar's count of new open tickets. It keeps polling alive while the window is shown once the tenant's tickets
 * are cached (the first sync waits until the Tickets screen is opened), and raises the opt-in desktop notifications.
 */
export function TicketsBadge({ compact = false }: { compact?: boolean }) {
  const status = useCall('tickets.status', {});
  const views = useCall('tickets.views', {}, { enabled: !!status.data?.asOf });
  useWatchTickets(!!status.data?.asOf);
  useNewTicketNotifier();
  const count = views.data?.newCount ?? 0;
  if (!count) return null;
  return (
    <Badge size="sm" color="blue" aria-label={`${count} new tickets`} data-testid="tickets-badge">
      {compact && count > 99 ? '99+' : count > 999 ? '999+' : count}
    </Badge>
  );
}
