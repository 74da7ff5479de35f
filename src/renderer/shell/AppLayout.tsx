import { AppShell, Center, Loader } from '@mantine/core';
import { useDisclosure, useViewportSize } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import { useCall } from '../queries/useCall';
import { CommandPalette } from '../resources/CommandPalette';
import { useActiveTenant } from '../tenants/tenantContext';
import { TrainFlowProvider } from '../train/TrainFlowContext';
import { WindowDrop } from '../train/WindowDrop';
import { ConnectionBanner } from './ConnectionBanner';
import { TenantReachBanner } from './TenantReachBanner';
import { ErrorBoundary } from './ErrorBoundary';
import { isRail, SIDEBAR_WIDTH } from './navigationMode';
import { navigateTo, ScreenRouteContext, useSubRoute } from './routes';
import { findScreen } from './screens';
import { Sidebar } from './Sidebar';
import { useJobEndNotifications } from './jobNotifications';
import { MAIN_ID, SkipToContent, useFocusOnRouteChange } from './routeFocus';
import { TopBar } from './TopBar';
import { useHashRoute } from './useHashRoute';
import { useShellNavigation } from './useShellNavigation';
import { useWakeJobsOnline } from './useWakeJobsOnline';

export function AppLayout() {
  const [navigationOpened, navigation] = useDisclosure(false);
  const settings = useCall('settings.get', {});
  const { width } = useViewportSize();
  // The phone-sized drawer (below `sm`) always shows labels; wider windows follow the admin's choice.
  const rail = isRail(settings.data?.navigation ?? 'auto', width || window.innerWidth);
  useWakeJobsOnline();
  useJobEndNotifications();
  useShellNavigation();
  useFocusOnRouteChange();

  return (
    <TrainFlowProvider>
      <SkipToContent />
      <AppShell
        header={{ height: 60 }}
        navbar={{
          width: { base: SIDEBAR_WIDTH.full, sm: rail ? SIDEBAR_WIDTH.rail : SIDEBAR_WIDTH.full },
          breakpoint: 'sm',
          collapsed: { mobile: !navigationOpened },
        }}
        padding="lg"
      >
        <AppShell.Header>
          <TopBar navigationOpened={navigationOpened} onToggleNavigation={navigation.toggle} />
        </AppShell.Header>
        <AppShell.Navbar>
          <RoutedSidebar rail={rail && !navigationOpened} onNavigated={navigation.close} />
        </AppShell.Navbar>
        <AppShell.Main id={MAIN_ID}>
          <ConnectionBanner />
          <TenantReachBanner />
          <CurrentScreen />
        </AppShell.Main>
      </AppShell>
      <WindowDrop />
      <CommandPalette />
    </TrainFlowProvider>
  );
}

// The route is read by the two parts that change with it, so moving between screens leaves the rest of the shell
// (header, tenant switcher, layout) as it is instead of drawing it again.

function RoutedSidebar({ rail, onNavigated }: { rail: boolean; onNavigated(): void }) {
  const [route, navigate] = useHashRoute();
  return (
    <Sidebar
      rail={rail}
      current={findScreen(route)}
      onNavigate={(id) => {
        navigate(id);
        onNavigated();
      }}
    />
  );
}

function CurrentScreen() {
  const [route] = useHashRoute();
  const sub = useSubRoute();
  const tenant = useActiveTenant();
  const screen = findScreen(route);
  // When the tenant changes, a route that names one of the last tenant's records (a mentor, a job, a learner) goes
  // back to the screen's own page: that record is not this tenant's. Until it has, the screen waits.
  const kept = sub.slice(0, screen.tenantNeutralDepth ?? 0);
  const subPath = sub.join('/');
  const [shown, setShown] = useState<{ tenant: string | null; staleSub: string | null }>({
    tenant: tenant.id,
    staleSub: null,
  });
  if (tenant.id !== shown.tenant) {
    setShown({ tenant: tenant.id, staleSub: shown.tenant !== null && sub.length > kept.length ? subPath : null });
  } else if (shown.staleSub !== null && shown.staleSub !== subPath) {
    setShown({ ...shown, staleSub: null });
  }
  const leaving = shown.staleSub !== null && shown.staleSub === subPath;
  const screenHref = `#/${[screen.id, ...kept].map(encodeURIComponent).join('/')}`;
  useEffect(() => {
    if (leaving) navigateTo(screenHref);
  }, [leaving, screenHref]);

  if (!tenant.known) {
    return (
      <Center h={200}>
        <Loader size="sm" aria-label="Loading tenants" />
      </Center>
    );
  }
  if (leaving || tenant.id !== shown.tenant) return null;
  return (
    // Keyed by screen so leaving a crashed screen clears the error, and by tenant so nothing a screen holds (the
    // selection, the open ticket, a draft, filters, answers kept while the next load) outlives a tenant switch.
    <ErrorBoundary key={`${screen.id}\u0000${tenant.id ?? ''}`} area={`The ${screen.label} screen`}>
      <ScreenRouteContext.Provider value={screen.id}>
        <screen.Component />
      </ScreenRouteContext.Provider>
    </ErrorBoundary>
  );
}
