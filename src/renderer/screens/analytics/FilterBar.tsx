import {
  Button,
  ComboboxChevron,
  Group,
  Popover,
  Select,
  Stack,
  Text,
  TextInput,
  type SelectProps,
} from '@mantine/core';
import { useMemo, useState } from 'react';
import { DateRange, RANGE_LABELS, RANGE_PRESETS, resolveRange, type RangePreset } from '../../../shared/contract';
import { RefreshIcon } from '../../components/icons';
import { DayInput } from '../../components/DayInput';
import { useAnalytics } from './useAnalytics';
import { useDashboardFilters } from './DashboardFilters';
import { formatDayRange } from './format';

const SHORT: Record<RangePreset, string> = {
  today: 'Today',
  '7d': '7 d',
  '30d': '30 d',
  '90d': '90 d',
  all: 'All time',
  custom: 'Custom',
};

function timeZones(): string[] {
  try {
    return ['UTC', ...Intl.supportedValuesOf('timeZone').filter((z) => z !== 'UTC')];
  } catch {
    return ['UTC'];
  }
}

/**
 * The lists open in a portal and exist only while open: kept mounted (Mantine's default) each would be drawn and
 * positioned, hidden, every time the screen opens.
 */
const LIST_PROPS = { withinPortal: true, keepMounted: false } as const;

/** Range (presets or custom dates), time zone (always shown), mentor and department, and a refresh button. */
export function FilterBar({ mentor = true, department = true }: { mentor?: boolean; department?: boolean }) {
  const { filters, setFilters, refresh, refreshing } = useDashboardFilters();
  // Both lists are asked for when first opened (or when a choice is already made): the Overview's own figures
  // come first.
  const [wantMentors, setWantMentors] = useState(false);
  const mentors = useAnalytics(
    'analytics.filters',
    { parts: ['mentors'] },
    { enabled: mentor && (wantMentors || filters.mentor !== null) },
  );
  const [wantDepartments, setWantDepartments] = useState(false);
  const departments = useAnalytics(
    'analytics.filters',
    { parts: ['departments'] },
    { enabled: department && (wantDepartments || filters.department !== null) },
  );
  // The ~400 zones are listed once the list is first opened; until then the current one is all it needs.
  const [wantZones, setWantZones] = useState(false);
  const zones = useMemo(() => (wantZones ? timeZones() : [filters.timeZone]), [wantZones, filters.timeZone]);
  // Today, as the page opened (a label; the engine resolves ranges itself).
  const [now] = useState(() => Date.now());
  const resolved = useMemo(() => {
    try {
      return resolveRange(filters.range, filters.timeZone, now);
    } catch {
      return null;
    }
  }, [filters.range, filters.timeZone, now]);

  return (
    <Group gap="sm" align="flex-end" wrap="wrap" data-testid="filter-bar">
      <Stack gap={2}>
        <Text size="xs" c="dimmed" id="range-label">
          Range
        </Text>
        {/* Buttons rather than a SegmentedControl: its sliding indicator measures the page on every change. */}
        <Button.Group aria-labelledby="range-label">
          {RANGE_PRESETS.map((preset) => (
            <Button
              key={preset}
              size="xs"
              variant={filters.range.preset === preset ? 'filled' : 'default'}
              aria-pressed={filters.range.preset === preset}
              onClick={() => {
                if (preset === 'custom') {
                  const current = resolved ?? { from: '', to: '' };
                  setFilters({ range: { preset: 'custom', from: current.from, to: current.to } });
                } else setFilters({ range: { preset } });
              }}
            >
              {SHORT[preset]}
            </Button>
          ))}
        </Button.Group>
      </Stack>
      {filters.range.preset === 'custom' ? <CustomRange /> : null}
      <LazySelect
        shown={filters.timeZone}
        label="Time zone"
        size="xs"
        w={190}
        searchable
        data={zones}
        onDropdownOpen={() => setWantZones(true)}
        // Type to find a zone: 400 options in the page would slow every render down.
        limit={40}
        value={filters.timeZone}
        onChange={(zone) => zone && setFilters({ timeZone: zone })}
        allowDeselect={false}
        comboboxProps={LIST_PROPS}
      />
      {mentor ? (
        <LazySelect
          shown={mentors.data?.mentors.find((m) => m.id === filters.mentor)?.name ?? filters.mentor ?? ''}
          label="Mentor"
          size="xs"
          w={200}
          searchable
          clearable
          placeholder="All mentors"
          comboboxProps={LIST_PROPS}
          data={(mentors.data?.mentors ?? []).map((m) => ({ value: m.id, label: m.name }))}
          onDropdownOpen={() => setWantMentors(true)}
          nothingFoundMessage={mentors.isFetching ? 'Loading…' : 'No mentors'}
          value={filters.mentor}
          onChange={(value) => setFilters({ mentor: value })}
        />
      ) : null}
      {department ? (
        <LazySelect
          shown={
            departments.data?.departments.find((d) => d.id === String(filters.department))?.name ??
            (filters.department ? String(filters.department) : '')
          }
          label="Department"
          size="xs"
          w={180}
          clearable
          placeholder="All departments"
          comboboxProps={LIST_PROPS}
          data={(departments.data?.departments ?? []).map((d) => ({ value: d.id, label: d.name }))}
          onDropdownOpen={() => setWantDepartments(true)}
          nothingFoundMessage={departments.isFetching ? 'Loading…' : 'No departments'}
          value={filters.department ? String(filters.department) : null}
          onChange={(value) => setFilters({ department: value ? Number(value) : null })}
        />
      ) : null}
      <Button
        size="xs"
        variant="default"
        title="Ask the tenant again for everything on screen"
        leftSection={<RefreshIcon size={14} />}
        loading={refreshing}
        onClick={() => void refresh()}
      >
        Refresh
      </Button>
      <Text size="xs" c="dimmed" data-testid="range-summary">
        {resolved
          ? `${RANGE_LABELS[filters.range.preset]}: ${formatDayRange(resolved.from, resolved.to)} (${filters.timeZone})`
          : ''}
      </Text>
    </Group>
  );
}

/**
 * A filter list drawn as a plain field until it is first used. Mantine's Select sets up its list, popover and
 * positioning as it mounts (a few milliseconds each), and the bar's three are drawn every time a tab opens though
 * most visits never touch them. Pressing it, or tabbing to it, puts the real Select in its place, focused (and open,
 * when pressed); a list with a choice made is real from the start.
 */
function LazySelect({ shown, ...props }: SelectProps & { shown: string }) {
  const [live, setLive] = useState<'idle' | 'mounted' | 'focus' | 'open'>(() =>
    props.clearable && props.value != null ? 'mounted' : 'idle',
  );
  if (live !== 'idle')
    return <Select {...props} autoFocus={live !== 'mounted'} defaultDropdownOpened={live === 'open'} />;
  return (
    <TextInput
      label={props.label}
      size={props.size}
      w={props.w}
      value={shown}
      placeholder={props.placeholder}
      readOnly
      aria-haspopup="listbox"
      rightSection={<ComboboxChevron size={props.size} />}
      rightSectionPointerEvents="none"
      onFocus={() => setLive('focus')}
      onPointerDown={(event) => {
        // Not focused first: the Select that replaces it takes the focus and opens.
        event.preventDefault();
        props.onDropdownOpen?.();
        setLive('open');
      }}
    />
  );
}

/** Custom dates, applied only when they make a valid range (a reversed one says why). */
function CustomRange() {
  const { filters, setFilters } = useDashboardFilters();
  const [from, setFrom] = useState(filters.range.from ?? '');
  const [to, setTo] = useState(filters.range.to ?? '');
  const [opened, setOpened] = useState(false);
  // Escape on a day's calendar closes that calendar, not this whole box.
  const [calendars, setCalendars] = useState<Record<string, boolean>>({});
  const calendar = (end: string) => ({
    onCalendarChange: (open: boolean) => setCalendars((all) => ({ ...all, [end]: open })),
  });
  const check = DateRange.safeParse({ preset: 'custom', from, to });
  const problem = check.success ? null : (check.error.issues[0]?.message ?? 'Invalid range');
  return (
    <Popover
      opened={opened}
      onChange={setOpened}
      withArrow
      trapFocus
      position="bottom-start"
      closeOnEscape={!calendars.from && !calendars.to}
    >
      <Popover.Target>
        <Button size="xs" variant="light" onClick={() => setOpened((o) => !o)} data-testid="custom-range">
          {formatDayRange(filters.range.from ?? '', filters.range.to ?? '')}
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="xs">
          <DayInput
            label="From"
            size="xs"
            w={170}
            insidePopover
            {...calendar('from')}
            value={from}
            onChange={setFrom}
            maxDay={to}
          />
          <DayInput
            label="To"
            size="xs"
            w={170}
            insidePopover
            {...calendar('to')}
            value={to}
            onChange={setTo}
            minDay={from}
          />
          {/* A backwards range is said at its fields. */}
          {problem && !(from && to && from > to) ? (
            <Text size="xs" c="red" role="alert">
              {problem}
            </Text>
          ) : null}
          <Button
            size="xs"
            disabled={!!problem}
            onClick={() => {
              setFilters({ range: { preset: 'custom', from, to } });
              setOpened(false);
            }}
          >
            Apply
          </Button>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
