import { ResourceArea } from '../../resources/ResourceArea';

/**
 * `#/catalogue/<kind>`: the tenant's courses, pathways and programs, and who is enrolled (with Enrol from CSV…), as
 * the kit's generic lists, details and forms.
 */
export function CatalogueScreen() {
  return <ResourceArea area="catalogue" />;
}
