import type { ComponentType } from 'react';
import type { IconProps } from '../components/icons';
import { JobsIcon, MentorIcon, SettingsIcon, TenantIcon } from '../components/icons';
import { AnalyticsScreen } from '../screens/analytics/AnalyticsScreen';
import { CatalogueScreen } from '../screens/catalogue/CatalogueScreen';
import { CatalogueIcon } from '../screens/catalogue/icons';
import { ChartIcon } from '../screens/analytics/icons';
import { CredentialsScreen } from '../screens/credentials/CredentialsScreen';
import { BadgeIcon } from '../screens/credentials/icons';
import { InvitationsScreen } from '../screens/invitations/InvitationsScreen';
import { InviteIcon } from '../screens/invitations/icons';
import { JobsScreen } from '../screens/jobs/JobsScreen';
import { MentorsScreen } from '../screens/mentors/MentorsScreen';
import { TenantSettingsScreen } from '../screens/resources/TenantSettingsScreen';
import { KeyIcon } from '../screens/models/icons';
import { ModelsAndKeysScreen } from '../screens/models/ModelsAndKeysScreen';
import { MentorConfigIcon } from '../screens/mentor-config/icons';
import { MentorConfigScreen } from '../screens/mentor-config/MentorConfigScreen';
import { PeopleIcon } from '../screens/people/icons';
import { PeopleAccessScreen } from '../screens/people/PeopleAccessScreen';
import { LicenceIcon } from '../screens/licences/icons';
import { LicencesScreen } from '../screens/licences/LicencesScreen';
import { SettingsScreen } from '../screens/settings/SettingsScreen';
import { ReviewIcon } from '../screens/review/icons';
import { ReviewScreen } from '../screens/review/ReviewScreen';
import { TracesIcon } from '../screens/traces/icons';
import { TracesScreen } from '../screens/traces/TracesScreen';
import { TicketIcon } from '../screens/tickets/icons';
import { TicketsBadge } from '../screens/tickets/TicketsBadge';
import { TicketsScreen } from '../screens/tickets/TicketsScreen';

export interface ScreenDefinition {
  /** The hash route: `#/<id>`. */
  id: string;
  label: string;
  icon: ComponentType<IconProps>;
  Component: ComponentType;
  /**
   * Drawn at the end of the screen's sidebar link (e.g. a count of new items); always mounted. `compact` in the rail
   * of icons, where there is room for two or three characters only.
   */
  badge?: ComponentType<{ compact?: boolean }>;
  /**
   * How many route segments after the screen id stay when the tenant changes (tabs, say); the ones after them name
   * one tenant's records and are dropped. Default 0.
   */
  tenantNeutralDepth?: number;
}

/**
 * Every screen the sidebar offers, in order. Only screens that work are listed. Add the next ones here as they
 * land (Mentors, Jobs, Invitations, Analytics, Tickets): one folder under `screens/`, one entry below.
 */
export const SCREENS: readonly ScreenDefinition[] = [
  { id: 'mentors', label: 'Mentors', icon: MentorIcon, Component: MentorsScreen },
  { id: 'analytics', label: 'Analytics', icon: ChartIcon, Component: AnalyticsScreen, tenantNeutralDepth: 1 },
  { id: 'tickets', label: 'Tickets', icon: TicketIcon, Component: TicketsScreen, badge: TicketsBadge },
  { id: 'review', label: 'Review queue', icon: ReviewIcon, Component: ReviewScreen },
  { id: 'traces', label: 'Traces', icon: TracesIcon, Component: TracesScreen },
  { id: 'catalogue', label: 'Catalogue', icon: CatalogueIcon, Component: CatalogueScreen, tenantNeutralDepth: 1 },
  { id: 'invitations', label: 'Invitations', icon: InviteIcon, Component: InvitationsScreen, tenantNeutralDepth: 1 },
  { id: 'credentials', label: 'Credentials', icon: BadgeIcon, Component: CredentialsScreen },
  { id: 'jobs', label: 'Jobs', icon: JobsIcon, Component: JobsScreen },
  {
    id: 'tenant-settings',
    label: 'Tenant settings',
    icon: TenantIcon,
    Component: TenantSettingsScreen,
    tenantNeutralDepth: 1,
  },
  { id: 'models-and-keys', label: 'Models and keys', icon: KeyIcon, Component: ModelsAndKeysScreen },
  {
    id: 'people-and-access',
    label: 'People and access',
    icon: PeopleIcon,
    Component: PeopleAccessScreen,
    tenantNeutralDepth: 1,
  },
  {
    id: 'mentor-configuration',
    label: 'Mentor configuration',
    icon: MentorConfigIcon,
    Component: MentorConfigScreen,
    tenantNeutralDepth: 1,
  },
  { id: 'licences', label: 'Licences', icon: LicenceIcon, Component: LicencesScreen, tenantNeutralDepth: 1 },
  { id: 'settings', label: 'Settings', icon: SettingsIcon, Component: SettingsScreen },
];

export function findScreen(id: string | undefined): ScreenDefinition {
  return SCREENS.find((screen) => screen.id === id) ?? SCREENS[0]!;
}
