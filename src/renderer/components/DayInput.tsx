/**
 * A calendar day picked for a filter, written in the app's one date format (Settings → Appearance → Dates and
 * numbers) like every date the app shows. The browser's own date field wrote it in the browser's format instead
 * (mm/dd/yyyy in an American Chromium), whatever the admin had chosen.
 */
import { DatePickerInput, type DatePickerInputProps } from '@mantine/dates';
import { formatDay } from '../lib/format';

interface DayInputProps extends Omit<
  DatePickerInputProps,
  'value' | 'onChange' | 'type' | 'valueFormatter' | 'label' | 'defaultValue'
> {
  label: string;
  /** The day as "YYYY-MM-DD", as a date field's value; '' for none. */
  value: string;
  onChange(day: string): void;
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

export function DayInput({ label, value, onChange, ...props }: DayInputProps) {
  return (
    <DatePickerInput
      label={label}
      clearable
      clearButtonProps={{ 'aria-label': `Clear ${label.toLowerCase()}` }}
      value={value || null}
      onChange={(day) => onChange(day ?? '')}
      ariaLabels={CALENDAR_LABELS}
      // A day picked (or Escape) puts the keyboard back on the field, not on the page's start.
      popoverProps={{ returnFocus: true }}
      valueFormatter={({ date }) => (typeof date === 'string' && date ? formatDay(date.slice(0, 10)) : '')}
      {...props}
    />
  );
}
