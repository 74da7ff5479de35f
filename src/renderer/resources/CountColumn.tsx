import { Text } from '@mantine/core';
import { RESOURCES, referrersOf, type ResourceDeclaration, type ResourceKind } from '../../shared/resources';
import { formatCount } from '../lib/format';
import { useCall } from '../queries/useCall';

/**
 * A column of how many records of another kind refer to each record on screen (a department's members), for a kind
 * whose platform list gives no count: counted by the engine from its saved copy of the referring kind. At most one
 * per kind (departments have one).
 */
export function useCountColumn(profileId: string, declaration: ResourceDeclaration, ids: readonly string[]) {
  const relation = referrersOf(declaration.kind, Object.values(RESOURCES) as ResourceDeclaration[]).find(
    (referring) => referring.column,
  );
  const counts = useCall(
    'resources.counts',
    {
      profileId,
      kind: (relation?.declaration.kind ?? 'department-members') as ResourceKind,
      field: relation?.field ?? 'department_id',
      ids: ids.length ? [...ids] : ['-'],
    },
    { enabled: !!relation && ids.length > 0 },
  );
  if (!relation?.column) return null;
  const asOf = counts.data?.freshness.asOf;
  return {
    label: relation.column,
    cell: (id: string) => {
      const n = counts.data?.counts[id];
      return (
        <Text
          size="sm"
          data-testid="count-cell"
          title={counts.isError ? 'Could not be counted' : asOf ? `Counted from the list read ${asOf}` : undefined}
        >
          {n === undefined ? '—' : formatCount(n)}
        </Text>
      );
    },
  };
}
