import { useLocalStorage } from '@mantine/hooks';
import type { ColumnDeclaration } from '../../shared/resources';

/**
 * Which of a kind's declared columns the admin shows, kept in this browser per tenant and kind (another tenant's
 * choice is its own). The hidden ones are kept, not the shown ones, so a column a later version declares shows up.
 * The first column (the record's name, which opens it) always shows.
 */
export function useColumnChoice(profileId: string, kind: string, columns: readonly ColumnDeclaration[]) {
  const [hidden, setHidden] = useLocalStorage<string[]>({
    key: `mentor-admin.columns.${profileId}.${kind}`,
    defaultValue: [],
    getInitialValueInEffect: false,
  });
  const lead = columns[0]?.field;
  const shown = columns.filter((column) => column.field === lead || !hidden.includes(column.field));
  return {
    shown,
    isShown: (field: string) => shown.some((column) => column.field === field),
    toggle(field: string) {
      if (field === lead) return;
      setHidden((current) =>
        current.includes(field) ? current.filter((name) => name !== field) : [...current, field],
      );
    },
    reset: () => setHidden([]),
  };
}
