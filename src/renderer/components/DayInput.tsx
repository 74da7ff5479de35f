/**
 * A calendar day for a filter, written and read in the app's one date format (Settings → Appearance → Dates and
 * numbers) like every date the app shows. The browser's own date field wrote it in the browser's format instead
 * (mm/dd/yyyy in an American Chromium), whatever the admin had chosen.
 *
 * The day can be typed ("24 Nov 2026", or numerically in the format's order) or picked on a calendar (the button
 * at the field's end, or the down arrow in the field): arrow keys move through the days, Enter picks, Escape closes.
 * With `minDay` / `maxDay` (the other end of a range) the days outside are greyed out on the calendar, and a typed
 * one says under the field why the range is the wrong way round.
 */
import { ActionIcon, CloseButton, Group, Popover, Text, TextInput, type TextInputProps } from '@mantine/core';
import { DatePicker } from '@mantine/dates';
import { useRef, useState, type ReactNode } from 'react';
import { formatDay, formatLocale, parseDay } from '../lib/format';
import { CalendarIcon } from './icons';

interface DayInputProps extends Omit<
  TextInputProps,
  'value' | 'onChange' | 'type' | 'label' | 'defaultValue' | 'error' | 'rightSection' | 'leftSection'
> {
  label: string;
  /** The label written small inside the field, for a compact filter bar, rather than above it. */
  inlineLabel?: boolean;
  /** The day as "YYYY-MM-DD"; '' for none. */
  value: string;
  onChange(day: string): void;
  /** The earliest day that can be chosen ("YYYY-MM-DD"): a range's start, for its end. */
  minDay?: string;
  /** The latest day that can be chosen: a range's end, for its start. */
  maxDay?: string;
  /** A clear button once a day is set, for a filter that can be left open. */
  clearable?: boolean;
  error?: ReactNode;
  /** Inside another popover: the calendar is drawn within it, so a click on it does not close the outer one. */
  insidePopover?: boolean;
  onCalendarChange?(opened: boolean): void;
}

/** The calendar's arrows and headings are icons or bare words: named for screen readers. */
const CALENDAR_LABELS = {
  monthLevelControl: 'Pick a month',
  yearLevelControl: 'Pick a year',
  nextMonth: 'Next month',
  previousMonth: 'Previous month',
  nextYear: 'Next year',
  previousYear: 'Previous year',
  nextDecade: 'Next decade',
  previousDecade: 'Previous decade',
};

const today = () => new Date().toISOString().slice(0, 10);

/** Why a day cannot be this range's start or end; null when it can. */
function outOfRange(day: string, minDay: string | undefined, maxDay: string | undefined): string | null {
  if (minDay && day < minDay) return `Pick ${formatDay(minDay)} or later: the range starts then.`;
  if (maxDay && day > maxDay) return `Pick ${formatDay(maxDay)} or earlier: the range ends then.`;
  return null;
}

export function DayInput({
  label,
  inlineLabel,
  value,
  onChange,
  minDay,
  maxDay,
  clearable,
  error,
  insidePopover,
  onCalendarChange,
  size,
  onBlur,
  onFocus,
  onKeyDown,
  ...props
}: DayInputProps) {
  const locale = formatLocale();
  const [text, setText] = useState(() => (value ? formatDay(value) : ''));
  const [typing, setTyping] = useState(false);
  const [opened, setOpenedState] = useState(false);
  const openedAtPress = useRef(false);
  const field = useRef<HTMLInputElement>(null);
  // A day picked, or Escape, puts the keyboard back in the field (not on the calendar button that opened it).
  const backToField = () => setTimeout(() => field.current?.focus(), 20);
  const setOpened = (next: boolean) => {
    setOpenedState(next);
    onCalendarChange?.(next);
  };

  // A day set from outside (a saved view, a cleared filter, another locale) is written anew; not while the typed
  // text already says that day. Done while rendering, so the field never shows the old day for a frame.
  const [shown, setShown] = useState({ value, locale });
  if (shown.value !== value || shown.locale !== locale) {
    setShown({ value, locale });
    setText((current) => (current.trim() && parseDay(current) === value ? current : value ? formatDay(value) : ''));
  }

  const typed = text.trim() ? parseDay(text) : '';
  const problem =
    typed === null
      ? typing
        ? null
        : `Not a day the app can read: write it like ${formatDay(today())}.`
      : outOfRange(typed || value, minDay, maxDay);

  function type(next: string) {
    setText(next);
    if (!next.trim()) {
      if (clearable || !value) onChange('');
      return;
    }
    const day = parseDay(next);
    // Applied even outside the range, so what the field shows is what the screen has; the field says what is wrong.
    if (day && day !== value) onChange(day);
  }

  function pick(day: string | null) {
    if (!day) return;
    setText(formatDay(day));
    if (day !== value) onChange(day);
    setOpened(false);
    backToField();
  }

  // The calendar opens on the chosen day, else today kept within the range; the keyboard starts on that day.
  const now = today();
  const startDay = value || (minDay && now < minDay ? minDay : maxDay && now > maxDay ? maxDay : now);
  const iconSize = size === 'xs' ? 'sm' : 'md';
  const controls = (
    <Group gap={2} wrap="nowrap">
      {clearable && value && (
        <CloseButton
          size={iconSize}
          aria-label={`Clear ${label.toLowerCase()}`}
          onClick={() => {
            setText('');
            onChange('');
          }}
        />
      )}
      <ActionIcon
        variant="subtle"
        color="gray"
        size={iconSize}
        aria-label={`Pick a day for “${label}”`}
        aria-expanded={opened}
        onMouseDown={() => {
          openedAtPress.current = opened;
        }}
        onClick={() => setOpened(!openedAtPress.current)}
      >
        <CalendarIcon size={size === 'xs' ? 14 : 16} />
      </ActionIcon>
    </Group>
  );

  return (
    <Popover
      opened={opened}
      onChange={setOpened}
      position="bottom-start"
      trapFocus
      withinPortal={!insidePopover}
      shadow="md"
    >
      <Popover.Target>
        <TextInput
          {...props}
          ref={field}
          size={size}
          label={inlineLabel ? undefined : label}
          aria-label={inlineLabel ? label : undefined}
          leftSection={
            inlineLabel ? (
              <Text size="xs" c="dimmed">
                {label}
              </Text>
            ) : undefined
          }
          leftSectionWidth={inlineLabel ? 38 : undefined}
          leftSectionPointerEvents="none"
          rightSection={controls}
          rightSectionWidth={clearable && value ? 52 : 30}
          rightSectionPointerEvents="all"
          autoComplete="off"
          value={text}
          error={error ?? problem}
          onChange={(event) => type(event.currentTarget.value)}
          onFocus={(event) => {
            setTyping(true);
            onFocus?.(event);
          }}
          onBlur={(event) => {
            setTyping(false);
            // What was typed reads back as the app writes it ("5/10/26" → "5 Oct 2026").
            if (typed) setText(formatDay(typed));
            // A day this filter needs comes back when its text is emptied.
            if (typed === '' && value) setText(formatDay(value));
            onBlur?.(event);
          }}
          onKeyDown={(event) => {
            if (event.key === 'ArrowDown' && !opened) {
              event.preventDefault();
              setOpened(true);
            }
            onKeyDown?.(event);
          }}
        />
      </Popover.Target>
      <Popover.Dropdown
        onKeyDown={(event) => {
          if (event.key === 'Escape') backToField();
        }}
      >
        <DatePicker
          value={value || null}
          onChange={pick}
          defaultDate={startDay}
          minDate={minDay || undefined}
          maxDate={maxDay || undefined}
          ariaLabels={CALENDAR_LABELS}
          size={size === 'xs' ? 'xs' : 'sm'}
          getDayProps={(day) => (day === startDay ? { 'data-autofocus': true } : {})}
        />
      </Popover.Dropdown>
    </Popover>
  );
}
