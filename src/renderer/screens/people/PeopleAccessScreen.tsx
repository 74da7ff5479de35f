import { ResourceArea } from '../../resources/ResourceArea';

/** `#/people-and-access/<kind>`: departments, user groups, and the RBAC roles, policies and access groups. */
export function PeopleAccessScreen() {
  return <ResourceArea area="people-and-access" />;
}
