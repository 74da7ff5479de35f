import { useEffect } from 'react';
import { APP_HREF } from '../../shared/contract';
import { useBridge } from '../bridge/BridgeContext';
import { navigateTo } from './routes';

/** The desktop app's shell sends the window to a route (the admin clicked one of its notifications). */
export function useShellNavigation(): void {
  const bridge = useBridge();
  useEffect(
    () =>
      bridge.onEvent((event) => {
        if (event.name === 'app.navigate' && APP_HREF.test(event.payload.href)) navigateTo(event.payload.href);
      }),
    [bridge],
  );
}
