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
  const [route, navigate] = useHashRoute();
  const [navigationOpened, navigation] = useDisclosure(false);
  const screen = findScreen(route);
  useWorkEventSync();
  useJobEndNotifications();
  useShellNavigation();

  function goTo(id: string) {
    navigate(id);
    navigation.close();
  }

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
          <Sidebar current={screen} onNavigate={goTo} />
        </AppShell.Navbar>
        <AppShell.Main>
          <ConnectionBanner />
          {/* Keyed by screen so leaving a crashed screen clears the error. */}
          <ErrorBoundary key={screen.id} area={`The ${screen.label} screen`}>
            <screen.Component />
          </ErrorBoundary>
        </AppShell.Main>
      </AppShell>
      <WindowDrop />
    </TrainFlowProvider>
  );
}
