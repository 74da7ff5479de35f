import type { ComponentType } from 'react';
import type { IconProps } from '../components/icons';
import { SettingsIcon } from '../components/icons';
import { SettingsScreen } from '../screens/settings/SettingsScreen';

export interface ScreenDefinition {
  /** The hash route: `#/<id>`. */
  id: string;
  label: string;
  icon: ComponentType<IconProps>;
  Component: ComponentType;
}

/**
 * Every screen the sidebar offers, in order. Only screens that work are listed. Add the next ones here as they
 * land (Mentors, Jobs, Invitations, Analytics, Tickets): one folder under `screens/`, one entry below.
 */
export const SCREENS: readonly ScreenDefinition[] = [
  { id: 'settings', label: 'Settings', icon: SettingsIcon, Component: SettingsScreen },
];

export function findScreen(id: string | undefined): ScreenDefinition {
  return SCREENS.find((screen) => screen.id === id) ?? SCREENS[0]!;
}
