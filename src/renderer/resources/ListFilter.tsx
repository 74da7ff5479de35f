/**
 * One of a list's declared filters, as the control its input calls for: a yes/no field as All / Label / Not label, a
 * field of a few values as All and each value, a free value as a box (matched exactly, as `--where` does on the CLI),
 * a record's id as the picker a form's field of that kind uses (a mentor by name).
 */
import { SegmentedControl, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { useState } from 'react';
import type { FilterDeclaration } from '../../shared/resources';
import { MentorPicker } from './mentor-refs';
import { RecordPicker } from './Relations';

const ANY = 'any';

export function ListFilter({
  profileId,
  filter,
  value,
  onChange,
}: {
  profileId: string;
  filter: FilterDeclaration;
  value: string | undefined;
  /** Undefined: no filter on this field. */
  onChange(value: string | undefined): void;
}) {
  if (filter.input === 'text') return <TextFilter filter={filter} value={value} onChange={onChange} />;
  if (filter.input === 'reference') {
    const common = {
      'aria-label': filter.label,
      placeholder: `Any ${filter.label.toLowerCase()}`,
      size: 'sm' as const,
      value: value ?? null,
      style: { flex: '0 1 220px' },
      comboboxProps: { withinPortal: true },
      // Mantine's clear button is out of the tab order; a filter must be cleared from the keyboard too.
      clearButtonProps: { 'aria-label': `Clear ${filter.label.toLowerCase()}`, 'aria-hidden': false, tabIndex: 0 },
    };
    return filter.references === 'mentors' ? (
      <MentorPicker {...common} profileId={profileId} onChange={(picked) => onChange(picked || undefined)} />
    ) : (
      <RecordPicker
        {...common}
        profileId={profileId}
        kind={filter.references ?? ''}
        onChange={(picked) => onChange(picked === null || picked === '' ? undefined : String(picked))}
      />
    );
  }
  const values =
    filter.input === 'select'
      ? (filter.options ?? [])
      : [
          { value: 'true', label: filter.label },
          { value: 'false', label: `Not ${filter.label.toLowerCase()}` },
        ];
  return (
    <SegmentedControl
      aria-label={filter.label}
      size="xs"
      value={value ?? ANY}
      onChange={(chosen) => onChange(chosen === ANY ? undefined : chosen)}
      data={[{ value: ANY, label: filter.input === 'select' ? `Any ${filter.label.toLowerCase()}` : 'All' }, ...values]}
    />
  );
}

function TextFilter({
  filter,
  value,
  onChange,
}: {
  filter: FilterDeclaration;
  value: string | undefined;
  onChange(value: string | undefined): void;
}) {
  const [text, setText] = useState(value ?? '');
  const apply = useDebouncedCallback((next: string) => onChange(next.trim() || undefined), 250);
  return (
    <TextInput
      aria-label={filter.label}
      placeholder={filter.label}
      size="sm"
      value={text}
      onChange={(event) => {
        setText(event.currentTarget.value);
        apply(event.currentTarget.value);
      }}
      style={{ flex: '0 1 180px' }}
    />
  );
}
