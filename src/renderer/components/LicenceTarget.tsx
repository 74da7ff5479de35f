/**
 * What a course or program licence gives seats of, by name (its id on hover), as the licence lists name it: the
 * licence's page passes the id it read; elsewhere the licence comes from its kind's saved list. The course or program
 * is named through the kit's referred names. A program the
 * catalogue does not list is said so with its id; a user licence (of the platform itself) shows nothing.
 */
import { Text } from '@mantine/core';
import { RESOURCES, type ResourceDeclaration, type ResourceKind } from '../../shared/resources';
import { useCall } from '../queries/useCall';
import { useShownValue } from '../resources/mentor-refs';

export function LicenceTarget({
  profileId,
  kind,
  licenseId,
  of,
  inline = false,
}: {
  profileId: string;
  /** The licence's kind (`course-licenses`, `program-licenses`; `licenses` has no target). */
  kind: ResourceKind;
  licenseId: number;
  /** The course's id or program's key when the caller has it (the licence page): no licence list is read then. */
  of?: string | null | undefined;
  /** Within a line of other words (the person page's licences): dimmed, after a dot. */
  inline?: boolean;
}) {
  const declaration = RESOURCES[kind] as ResourceDeclaration;
  const column = declaration.columns.find((candidate) => candidate.references);
  const known = of !== undefined;
  const licences = useCall('resources.list', { profileId, kind, pageSize: 500 }, { enabled: !!column && !known });
  const record = known ? undefined : licences.data?.records.find((licence) => Number(licence.id) === licenseId);
  const show = useShownValue(profileId, declaration, record ? [record] : []);
  const id = known ? of : column && record ? record[column.field] : undefined;
  if (!column || typeof id !== 'string' || !id) return null;
  const name = String(show(column.field, id));
  if (inline) {
    return (
      <Text
        size="sm"
        c="dimmed"
        title={id}
        style={{ minWidth: 0, overflowWrap: 'anywhere' }}
        data-testid="licence-target"
      >
        · {name}
      </Text>
    );
  }
  return (
    <Text size="sm">
      {column.label}:{' '}
      <Text span fw={500} title={id} style={{ overflowWrap: 'anywhere' }} data-testid="licence-target">
        {name}
      </Text>
    </Text>
  );
}
