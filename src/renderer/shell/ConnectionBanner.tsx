import { Alert } from '@mantine/core';
import { useNetwork } from '@mantine/hooks';
import { CloudOffIcon } from '../components/icons';
import { useConnectionState } from '../bridge/BridgeContext';

/** After this many failed reconnects, the host is probably gone rather than restarting. */
const ATTEMPTS_BEFORE_HELP = 3;

/** Says when the engine (browser mode) or the network is out of reach; stays silent otherwise. */
export function ConnectionBanner() {
  const connection = useConnectionState();
  const { online } = useNetwork();

  if (connection.status === 'reconnecting') {
    return (
      <Alert
        color="orange"
        variant="light"
        icon={<CloudOffIcon />}
        title="Connection to Mentor Admin lost"
        role="alert"
        mb="md"
      >
        Reconnecting…
        {connection.attempt >= ATTEMPTS_BEFORE_HELP &&
          ' If you stopped `npm run web`, start it again and open the new address it prints.'}
      </Alert>
    );
  }
  if (!online) {
    return (
      <Alert color="yellow" variant="light" icon={<CloudOffIcon />} title="You are offline" role="status" mb="md">
        Tenants cannot be reached until the network is back. Saved settings still work.
      </Alert>
    );
  }
  return null;
}
