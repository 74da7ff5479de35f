import { createSpotlight, Spotlight, useSpotlight } from '@mantine/spotlight';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { RESOURCE_AREAS, RESOURCES, type ResourceDeclaration, type ResourceKind } from '../../shared/resources';
import { useBridge } from '../bridge/BridgeContext';
import { SearchIcon } from '../components/icons';
import { navigateTo } from '../shell/routes';
import { SCREENS } from '../shell/screens';
import { useActiveTenant } from '../tenants/tenantContext';
import { capitalized, titleOf } from './naming';

type Declared = ResourceDeclaration & { kind: ResourceKind };
// A record per mentor (its settings) is found on the mentor's page, not as a kind of its own.
const KINDS = (Object.values(RESOURCES) as Declared[]).filter((declaration) => !declaration.keyedBy);
/** Kinds whose records are looked up by name (a single-record kind is found by its kind). */
const RECORD_KINDS = KINDS.filter((declaration) => !declaration.single);
/** Records asked for per kind while typing. */
const PER_KIND = 5;

interface Entry {
  id: string;
  label: string;
  description: string;
  href: string;
}

/**
 * The results list's id, known before the list mounts: Mantine learns a generated one in an effect after each
 * opening, so an Enter pressed before that effect would look for the highlight in the last opening's list.
 */
const RESULTS_ID = 'command-palette-results';
const [paletteStore] = createSpotlight();
paletteStore.updateState((state) => ({ ...state, listId: RESULTS_ID }));

/**
 * Highlights the palette's first result, as Mantine's own `selectAction(0)` does after typing (which the package does
 * not export): the attribute its Enter looks for, and the index its arrow keys move from.
 */
function selectFirstResult(): void {
  const first = document.getElementById(RESULTS_ID)?.querySelector('[data-action]');
  if (!first) return;
  first.setAttribute('data-selected', 'true');
  paletteStore.updateState((state) => ({ ...state, selected: 0 }));
}

const focusOnMount = (input: HTMLInputElement | null) => input?.focus({ preventScroll: true });

const matches = (query: string, ...texts: string[]) =>
  texts.some((text) => text.toLowerCase().includes(query.trim().toLowerCase()));

export const recordHref = (declaration: ResourceDeclaration, id: string) =>
  `#/${declaration.area}/${declaration.kind}/${encodeURIComponent(id)}`;

/**
 * Ctrl/Cmd-K: jump to any screen, any resource kind, and any record of the active tenant by name (mentors, and every
 * kind's records as the engine's cache has them).
 */
export function CommandPalette() {
  const bridge = useBridge();
  const tenant = useActiveTenant();
  const [query, setQuery] = useState('');
  const [typed] = useDebouncedValue(query.trim(), 200);

  const records = useQuery({
    queryKey: ['palette.records', { profileId: tenant.id, search: typed }],
    enabled: !!tenant.id && typed.length >= 2,
    staleTime: 5_000,
    queryFn: async (): Promise<Entry[]> => {
      const profileId = tenant.id!;
      const [mentors, ...kinds] = await Promise.all([
        bridge.call('mentors.list', { profileId, search: typed }).catch(() => null),
        ...RECORD_KINDS.map((declaration) =>
          bridge
            .call('resources.list', { profileId, kind: declaration.kind, search: typed, pageSize: PER_KIND })
            .catch(() => null),
        ),
      ]);
      const entries: Entry[] = (mentors?.mentors ?? []).slice(0, PER_KIND).map((mentor) => ({
        id: `mentor:${mentor.uniqueId}`,
        label: mentor.name,
        description: 'Mentor',
        href: `#/mentors/${encodeURIComponent(mentor.uniqueId)}`,
      }));
      kinds.forEach((answer, index) => {
        const declaration = RECORD_KINDS[index]!;
        for (const record of answer?.records ?? []) {
          const id = String(record[declaration.idField]);
          entries.push({
            id: `${declaration.kind}:${id}`,
            label: titleOf(declaration, record),
            description: capitalized(declaration.singular),
            href: recordHref(declaration, id),
          });
        }
      });
      return entries;
    },
  });

  const places: Entry[] = [
    ...SCREENS.map((screen) => ({
      id: `screen:${screen.id}`,
      label: screen.label,
      description: 'Screen',
      href: `#/${screen.id}`,
    })),
    ...KINDS.map((declaration) => ({
      id: `kind:${declaration.kind}`,
      label: declaration.label,
      // Where the list lives, as a screen's entry says "Screen"; the label already names the kind.
      description: RESOURCE_AREAS[declaration.area],
      href: `#/${declaration.area}/${declaration.kind}`,
    })),
  ].filter((entry) => !query.trim() || matches(query, entry.label, entry.description));
  const found = typed.length >= 2 ? (records.data ?? []) : [];
  const { opened, selected } = useSpotlight(paletteStore);
  const shown = places.length + found.length;
  // Enter works at once: the first result is highlighted when the palette opens, and when results come in while
  // none is (the records found by name arrive after the typing that found them).
  useEffect(() => {
    if (!opened || selected !== -1 || shown === 0) return;
    const frame = requestAnimationFrame(selectFirstResult);
    return () => cancelAnimationFrame(frame);
  }, [opened, selected, shown]);

  const action = (entry: Entry) => (
    <Spotlight.Action
      key={entry.id}
      label={entry.label}
      description={entry.description}
      onClick={() => navigateTo(entry.href)}
    />
  );

  return (
    <Spotlight.Root
      store={paletteStore}
      query={query}
      onQueryChange={setQuery}
      shortcut={['mod + K']}
      // Anywhere, a search box included: the palette is how the keyboard moves around the app.
      tagsToIgnore={[]}
      clearQueryOnClose
      // Open at once, not a frame later: keys typed straight after Ctrl+K would otherwise go to the page behind.
      transitionProps={{ duration: 0 }}
    >
      <Spotlight.Search
        placeholder="Go to a screen, a kind or a record…"
        leftSection={<SearchIcon size={16} />}
        // Keys typed straight after Ctrl+K are the search's: Mantine's focus trap moves focus only on a timer.
        ref={focusOnMount}
        // Enter pressed before the highlight's frame came chooses the first result, as it would a moment later.
        onKeyDown={(event) => {
          if (event.key === 'Enter' && paletteStore.getState().selected === -1) selectFirstResult();
        }}
      />
      <Spotlight.ActionsList id={RESULTS_ID}>
        {places.length > 0 && <Spotlight.ActionsGroup label="Go to">{places.map(action)}</Spotlight.ActionsGroup>}
        {found.length > 0 && (
          <Spotlight.ActionsGroup label={tenant.profile ? `Records of ${tenant.profile.name}` : 'Records'}>
            {found.map(action)}
          </Spotlight.ActionsGroup>
        )}
        {places.length === 0 && found.length === 0 && (
          <Spotlight.Empty>{records.isFetching ? 'Searching…' : 'Nothing matches'}</Spotlight.Empty>
        )}
      </Spotlight.ActionsList>
    </Spotlight.Root>
  );
}
