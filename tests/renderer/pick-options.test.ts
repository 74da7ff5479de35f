import { describe, expect, it } from 'vitest';
import { pickedIds, pickOptions, takenValues } from '../../src/renderer/resources/pick-options';
import { initialValue, referencedIds, toBody } from '../../src/renderer/resources/fields/values';
import { mentorSettings, type FieldDeclaration } from '../../src/shared/resources';

const categories = [
  { id: 1, name: 'Life sciences' },
  { id: 2, name: 'History' },
  { id: 3, name: 'Languages' },
];
const nameOf = (record: Record<string, unknown>) => String(record.name);

describe('reference pickers: what they offer', () => {
  it('offers records by name, their ids as the platform types them, and keeps a choice the page lacks', () => {
    const { data, ids } = pickOptions(categories.slice(0, 2), 'id', nameOf, [3]);
    expect(data).toEqual([
      { value: '3', label: '3' },
      { value: '1', label: 'Life sciences' },
      { value: '2', label: 'History' },
    ]);
    expect(pickedIds(['2', '3'], ids)).toEqual([2, 3]);
  });

  it('leaves out values another record already holds, except the one the form holds', () => {
    const configurations = [{ mentor: 'm-1' }, { mentor: 'm-2' }, { mentor: null }];
    const taken = takenValues(configurations, 'mentor');
    expect([...taken]).toEqual(['m-1', 'm-2']);
    const mentors = [
      { uniqueId: 'm-1', name: 'Ada' },
      { uniqueId: 'm-2', name: 'Bo' },
      { uniqueId: 'm-3', name: 'Cy' },
    ];
    expect(pickOptions(mentors, 'uniqueId', nameOf, [], taken).data.map((o) => o.label)).toEqual(['Cy']);
    expect(pickOptions(mentors, 'uniqueId', nameOf, ['m-2'], taken).data.map((o) => o.label)).toEqual(['Bo', 'Cy']);
  });
});

describe('a multiple reference field in a form', () => {
  const field = mentorSettings.fields.find((f) => f.name === 'categories') as FieldDeclaration;

  it('is declared as a picker of the mentor categories, not a JSON list', () => {
    expect(field).toMatchObject({ input: 'reference', references: 'mentor-categories', multiple: true });
    expect(mentorSettings.fields.find((f) => f.name === 'department_id')).toMatchObject({
      input: 'reference',
      references: 'departments',
    });
  });

  it('starts from the ids the record holds (categories answered as records) and sends them as ids', () => {
    expect(referencedIds([{ id: 4, name: 'A' }, 7, 'x', null, { name: 'no id' }])).toEqual([4, 7, 'x']);
    expect(initialValue(field, { categories: [{ id: 4, name: 'A' }] })).toEqual([4]);
    expect(initialValue(field, {})).toEqual([]);
    expect(toBody([field], { categories: [4, 2] }).body).toEqual({ categories: [4, 2] });
  });
});
