import { ResourceArea } from '../../resources/ResourceArea';

/** `#/mentor-configuration/<kind>`: what the tenant's mentors share — MCP servers, call configurations, category groups. */
export function MentorConfigScreen() {
  return <ResourceArea area="mentor-configuration" />;
}
