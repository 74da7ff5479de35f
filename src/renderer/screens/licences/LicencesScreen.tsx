import { ResourceArea } from '../../resources/ResourceArea';
import { AccessQueue } from './AccessQueue';
import { CourseLicencePage, LicencePage, ProgramLicencePage } from './LicencePage';

/**
 * `#/licences/<kind>`: the tenant's licences (`#/licences/licenses/<id>` is one licence with its seats; course and
 * program licences the same), who holds seats of which licence (every licence's, read from the platform), and the
 * access-request queue.
 */
export function LicencesScreen() {
  return (
    <ResourceArea
      area="licences"
      recordPages={{
        licenses: LicencePage,
        'course-licenses': CourseLicencePage,
        'program-licenses': ProgramLicencePage,
      }}
      ownLists={{ 'access-requests': AccessQueue }}
    />
  );
}
