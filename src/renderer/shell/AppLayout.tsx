import { AppShell } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { TrainFlowProvider } from '../train/TrainFlowContext';
import { WindowDrop } from '../train/WindowDrop';
import { ConnectionBanner } from './ConnectionBanner';
import { ErrorBoundary } from './ErrorBoundary';
import { findScreen } from './screens';
import { Sidebar } from './Sidebar';
import { useJobEndNotifications } from './jobNotifications';
import { TopBar } from './TopBar';
import { useHashRoute } from './useHashRoute';
import { useShellNavigation } from './useShellNavigation';
import { useWorkEventSync } from './useWorkEventSync';

export function AppLayout() {
  const [navigationOpened, navigation] = useDisclosure(false);
  useWorkEventSync();
  useJobEndNotifications();
  useShellNavigation();

  return (
    <TrainFlowProvider>
      <AppShell
        header={{ height: 60 }}
        navbar={{ width: 232, breakpoint: 'sm', collapsed: { mobile: !navigationOpened } }}
        padding="lg"
      >
        <AppShell.Header>
          <TopBar navigationOpened={navigationOpened} onToggleNavigation={navigation.toggle} />
        </AppShell.Header>
        <AppShell.Navbar>
          <RoutedSidebar onNavigated={navigation.close} />
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

function RoutedSidebar({ onNavigated }: { onNavigated(): void }) {
  const [route, navigate] = useHashRoute();
  return (
    <Sidebar
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
