import { AppShell } from '@mantine/core';
import { useDisclosure, useViewportSize } from '@mantine/hooks';
import { useCall } from '../queries/useCall';
import { TrainFlowProvider } from '../train/TrainFlowContext';
import { WindowDrop } from '../train/WindowDrop';
import { ConnectionBanner } from './ConnectionBanner';
import { ErrorBoundary } from './ErrorBoundary';
import { isRail, SIDEBAR_WIDTH } from './navigationMode';
import { findScreen } from './screens';
import { Sidebar } from './Sidebar';
import { useJobEndNotifications } from './jobNotifications';
import { TopBar } from './TopBar';
import { useHashRoute } from './useHashRoute';
import { useShellNavigation } from './useShellNavigation';
import { useWorkEventSync } from './useWorkEventSync';

export function AppLayout() {
  const [navigationOpened, navigation] = useDisclosure(false);
  const settings = useCall('settings.get', {});
  const { width } = useViewportSize();
  // The phone-sized drawer (below `sm`) always shows labels; wider windows follow the admin's choice.
  const rail = isRail(settings.data?.navigation ?? 'auto', width || window.innerWidth);
  useWorkEventSync();
  useJobEndNotifications();
  useShellNavigation();

  return (
    <TrainFlowProvider>
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
        <AppShell.Main>
          <ConnectionBanner />
          <CurrentScreen />
        </AppShell.Main>
      </AppShell>
      <WindowDrop />
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
  const screen = findScreen(route);
  return (
    // Keyed by screen so leaving a crashed screen clears the error.
    <ErrorBoundary key={screen.id} area={`The ${screen.label} screen`}>
      <screen.Component />
    </ErrorBoundary>
  );
}
