import { ResourceArea } from '../../resources/ResourceArea';
import { PersonPage } from './PersonPage';

/**
 * `#/people-and-access/<kind>`: the users directory, departments, user groups, and the RBAC roles, policies and
 * access groups; `#/people-and-access/users/<user id>` is a person's page.
 */
export function PeopleAccessScreen() {
  return <ResourceArea area="people-and-access" recordPages={{ users: PersonPage }} />;
}
