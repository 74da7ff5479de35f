import { ResourceArea } from '../../resources/ResourceArea';
import { AccessQueue } from './AccessQueue';
import { LicencePage } from './LicencePage';

/**
 * `#/licences/<kind>`: the tenant's licences (`#/licences/licenses/<id>` is one licence with its seats), the seats
 * given from this app, and the access-request queue.
 */
export function LicencesScreen() {
  return (
    <ResourceArea
      area="licences"
      recordPages={{ licenses: LicencePage }}
      ownLists={{ 'access-requests': AccessQueue }}
    />
  );
}
