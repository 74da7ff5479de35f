import { describe, expect, it } from 'vitest';
import { RESOURCES } from '../../src/shared/resources';
import {
  fieldLabel,
  labelOf,
  referredLabel,
  referredNames,
  searchPlaceholder,
  titleBeside,
} from '../../src/renderer/resources/naming';

describe('what a list calls its fields', () => {
  it('says every searched field by its label, never its raw name, whatever the kind', () => {
    for (const declaration of Object.values(RESOURCES)) {
      if (!declaration.search.length) continue;
      const placeholder = searchPlaceholder(declaration);
      for (const field of declaration.search) {
        if (field.includes('_')) expect(placeholder, declaration.kind).not.toContain(field);
      }
    }
    expect(searchPlaceholder(RESOURCES['course-licenses'])).toBe('Search by name, course or external ID');
    expect(searchPlaceholder(RESOURCES.programs)).toBe('Search by name, type or description');
    expect(searchPlaceholder(RESOURCES.courses)).toBe('Search by name, course ID or slug');
  });

  it('labels a field by its column, else its form field, else its name in words', () => {
    expect(labelOf(RESOURCES['course-licenses'], 'course_id')).toBe('Course');
    expect(labelOf(RESOURCES['lti-tools'], 'client_id')).toBe('Client ID');
    expect(labelOf(RESOURCES['course-licenses'], 'external_id')).toBe('External ID');
    expect(labelOf(RESOURCES['program-enrollments'], 'program_key')).toBe('Program key');
  });

  it("names a parent's related record by its first column other than the one naming the parent", () => {
    const review = { id: 4, course_id: 'course-v1:north+CS101+2026', username: 'ada', title: 'Clear' };
    expect(titleBeside(RESOURCES['course-reviews'], review, 'course_id')).toBe('ada');
    const enrolment = { username: 'grace', course_id: 'course-v1:north+CS101+2026' };
    expect(titleBeside(RESOURCES.enrollments, enrolment, 'course_id')).toBe('grace');
  });
});

describe('a column that holds another kind’s id', () => {
  it('names a review’s course and a licence’s program by the referred record’s name', () => {
    const courses = [{ course_id: 'course-v1:northbridge+CS101+2026', name: 'Intro to Programming' }];
    const shown = referredNames(RESOURCES['course-reviews'], RESOURCES.courses, courses);
    expect([...shown.fields]).toEqual(['course_id']);
    expect(shown.names.get('course-v1:northbridge+CS101+2026')).toBe('Intro to Programming');

    const programs = [{ id: 4, program_key: 'northbridge+data-science', name: 'Data Science Certificate' }];
    const byKey = referredNames(RESOURCES['program-licenses'], RESOURCES.programs, programs);
    expect(byKey.names.get('northbridge+data-science')).toBe('Data Science Certificate');
    expect(byKey.names.has('4')).toBe(false);
  });

  it('says an id the catalogue, read whole, does not list is missing; one past a partial read stays as it is', () => {
    const names = new Map([['main+data-science', 'Data Science Certificate']]);
    expect(referredLabel(names, true, 'main+data-science')).toBe('Data Science Certificate');
    expect(referredLabel(names, true, 'program-v1:main+ANALYTICS+2026')).toBe(
      'program-v1:main+ANALYTICS+2026 (not in this tenant’s catalogue)',
    );
    expect(referredLabel(names, false, 'program-v1:main+ANALYTICS+2026')).toBe('program-v1:main+ANALYTICS+2026');
  });

  it('marks the course columns of reviews, licences and access requests', () => {
    for (const kind of ['course-reviews', 'program-reviews', 'course-licenses', 'program-licenses'] as const) {
      expect(RESOURCES[kind].columns[0], kind).toHaveProperty('references');
    }
  });
});

describe('a field no declaration labels', () => {
  it('reads in words, a yes/no field without its "is"', () => {
    expect(fieldLabel('is_linked')).toBe('Linked');
    expect(fieldLabel('public_jwk')).toBe('Public JWK');
    expect(fieldLabel('mentor_unique_id')).toBe('Mentor unique ID');
    expect(fieldLabel('is')).toBe('Is');
  });
});
