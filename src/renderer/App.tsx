import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { BridgeProvider } from './bridge/BridgeContext';
import type { BridgeStartup } from './bridge/createBridge';
import type { Bridge } from './bridge/types';
import { createQueryClient } from './queries/queryClient';
import { useDeclaredInvalidation } from './queries/useDeclaredInvalidation';
import { AppLayout } from './shell/AppLayout';
import { FormatLocale } from './shell/FormatLocale';
import { ErrorBoundary } from './shell/ErrorBoundary';
import { MissingTokenPage } from './shell/MissingTokenPage';
import { ThemeSync } from './shell/ThemeSync';
import { TenantEditorProvider } from './tenants/TenantEditorContext';
import { TenantScope } from './tenants/TenantScope';
import { colorSchemeManager, cssVariablesResolver, theme } from './theme';

export function App({ startup }: { startup: BridgeStartup }) {
  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      colorSchemeManager={colorSchemeManager}
      defaultColorScheme="auto"
    >
      {/* Bottom left, over the sidebar's foot, and under dialogs: a toast that stays until used (job endings) never
          covers a dialog's or a wizard's buttons, which sit bottom right. */}
      <Notifications position="bottom-left" zIndex={190} limit={4} />
      <ErrorBoundary area="Mentor Admin">
        {startup.ok ? <ConnectedApp bridge={startup.bridge} /> : <MissingTokenPage />}
      </ErrorBoundary>
    </MantineProvider>
  );
}

function ConnectedApp({ bridge }: { bridge: Bridge }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <BridgeProvider bridge={bridge}>
      <QueryClientProvider client={queryClient}>
        <DeclaredInvalidation />
        <ThemeSync />
        <FormatLocale>
          <TenantScope>
            <TenantEditorProvider>
              <AppLayout />
            </TenantEditorProvider>
          </TenantScope>
        </FormatLocale>
      </QueryClientProvider>
    </BridgeProvider>
  );
}

/** Engine events keep the cached answers true, as the contract declares (one place for the whole app). */
function DeclaredInvalidation() {
  useDeclaredInvalidation();
  return null;
}
