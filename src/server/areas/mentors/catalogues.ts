/**
 * The platform's mentor types (`mentor-types/`) and subjects (`subjects/`), in the sandbox: read-only lists (the spec
 * has a GET only), the rows of its examples and a few more, the same for every tenant. A mentor's settings name
 * them by id (`types`, `subjects`) and answer them as objects.
 */
import type { AreaDeps } from '../../area';
import type { Router } from '../../http/router';

export interface CatalogueEntry {
  id: number;
  name: string;
  description: string | null;
}

export const MENTOR_TYPES: readonly CatalogueEntry[] = [
  { id: 1, name: 'Tutor', description: 'Academic tutor' },
  { id: 2, name: 'Coach', description: 'Life coach' },
  { id: 3, name: 'Advisor', description: 'Course and career advice' },
  { id: 4, name: 'Assistant', description: null },
];

export const SUBJECTS: readonly CatalogueEntry[] = [
  { id: 1, name: 'Mathematics', description: 'Mathematical subjects' },
  { id: 2, name: 'Science', description: 'Scientific subjects' },
  { id: 3, name: 'Languages', description: 'Reading, writing and speaking' },
  { id: 4, name: 'Computer science', description: 'Programming and computing' },
  { id: 5, name: 'History', description: null },
];

/** The entries of `ids` in the order given; ids not in the catalogue are left out. */
export const entriesOf = (catalogue: readonly CatalogueEntry[], ids: unknown): CatalogueEntry[] =>
  Array.isArray(ids) ? ids.flatMap((id) => catalogue.filter((entry) => entry.id === id)) : [];

/** The first of `ids` the catalogue does not have, or undefined. */
export const unknownIn = (catalogue: readonly CatalogueEntry[], ids: readonly number[]): number | undefined =>
  ids.find((id) => !catalogue.some((entry) => entry.id === id));

export function mentorCatalogueRoutes(router: Router, _deps: AreaDeps): void {
  const USER = '/api/ai-mentor/orgs/{org}/users/{user_id}';
  router.get(`${USER}/mentor-types/`, () => ({ status: 200, body: MENTOR_TYPES }));
  router.get(`${USER}/subjects/`, () => ({ status: 200, body: SUBJECTS }));
}
