/**
 * A kind's list narrowed by a link (`#/<area>/<kind>?course_id=…`, a course's "and 40 more"): the link's fields become
 * the list's filters. One the list has a filter control for shows there; any other shows as a pill that says what the
 * list is narrowed to and takes the narrowing away.
 */
import { Pill } from '@mantine/core';
import { useState } from 'react';
import type { ResourceDeclaration } from '../../shared/resources';
import { dropRouteQuery, useRouteQuery } from '../shell/routes';
import { labelOf } from './naming';
import { narrowingOf } from './narrowing';

/**
 * The list's filters, starting from the route's narrowing; a later link to the same list narrowed anew (another
 * course's "and N more" while this tab is open) replaces them. `generation` changes with it, so the filter controls
 * start again from the new values.
 */
export function useListFilters(declaration: ResourceDeclaration, onNarrowed: () => void) {
  const query = useRouteQuery();
  const [filters, setFilters] = useState<Record<string, string>>(() => narrowingOf(declaration, query));
  const [seen, setSeen] = useState(query);
  if (query !== seen) {
    // Adjusted while rendering (React's way to follow a changed input): no frame shows the old filters.
    setSeen(query);
    const asked = narrowingOf(declaration, query);
    // A route without one (a record opened from the list, then closed) keeps what the admin set.
    if (Object.keys(asked).length) {
      setFilters(asked);
      onNarrowed();
    }
  }
  return { filters, setFilters, generation: seen };
}

/** One pill for each filter the list has no control for, each removable. */
export function NarrowingPills({
  declaration,
  filters,
  shown,
  onRemove,
}: {
  declaration: ResourceDeclaration;
  filters: Readonly<Record<string, string>>;
  /** The value as the list shows it (a course's name for its id). */
  shown(field: string, value: string): string;
  onRemove(field: string): void;
}) {
  const controlled = new Set((declaration.filters ?? []).map((filter) => filter.field));
  return Object.entries(filters)
    .filter(([field]) => !controlled.has(field))
    .map(([field, value]) => {
      const label = `${labelOf(declaration, field)}: ${shown(field, value)}`;
      return (
        <Pill
          key={field}
          size="lg"
          withRemoveButton
          onRemove={() => {
            onRemove(field);
            dropRouteQuery();
          }}
          // Mantine leaves the remove button out of the tab order: taking a narrowing away works from the keyboard too.
          removeButtonProps={{
            'aria-label': `Show every ${declaration.singular}, not only ${label}`,
            'aria-hidden': false,
            tabIndex: 0,
          }}
          data-testid="list-narrowing"
          style={{ alignSelf: 'center', maxWidth: 320 }}
          title={label}
        >
          {label}
        </Pill>
      );
    });
}
