import { ResourceArea } from '../../resources/ResourceArea';

/** `#/tenant-settings/<kind>`: the tenant's API tokens, its domain whitelist, and the kinds to come. */
export function TenantSettingsScreen() {
  return <ResourceArea area="tenant-settings" />;
}
