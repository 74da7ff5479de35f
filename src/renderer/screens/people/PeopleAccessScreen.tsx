import { ResourceArea, type AreaTab } from '../../resources/ResourceArea';
import { AccessMatrixPanel } from './AccessMatrix';
import { PersonPage } from './PersonPage';
import { ErasureReportsPanel } from './PersonDataRequests';

const ACCESS_TABS: readonly AreaTab[] = [
  {
    value: 'access-matrix',
    label: 'Access matrix',
    group: 'Who can do what',
    render: (profileId) => <AccessMatrixPanel profileId={profileId} />,
  },
  {
    value: 'erasure-reports',
    label: 'Erasure reports',
    group: 'Data requests',
    render: (profileId) => <ErasureReportsPanel profileId={profileId} />,
  },
];

/**
 * `#/people-and-access/<kind>`: the users directory, departments, user groups, and the RBAC roles, policies and
 * access groups; `#/people-and-access/users/<user id>` is a person's page; `#/people-and-access/access-matrix`, the
 * roles' actions in one grid.
 */
export function PeopleAccessScreen() {
  return <ResourceArea area="people-and-access" extraTabs={ACCESS_TABS} recordPages={{ users: PersonPage }} />;
}
