import { describe, expect, it } from 'vitest';
import { RESOURCES } from '../../src/shared/resources';
import { narrowingOf } from '../../src/renderer/resources/narrowing';

describe('a list narrowed by its route', () => {
  it('takes the fields the kind may be narrowed by, decoded, and leaves out others and empty ones', () => {
    const query = `course_id=${encodeURIComponent('course-v1:north+CS101+2026')}&bogus=1&email=`;
    expect(narrowingOf(RESOURCES.enrollments, query)).toEqual({ course_id: 'course-v1:north+CS101+2026' });
  });

  it("takes a related list's field that is no column or filter (a program enrolment's program key)", () => {
    expect(narrowingOf(RESOURCES['program-enrollments'], 'program_key=north%2Bdata')).toEqual({
      program_key: 'north+data',
    });
    expect(narrowingOf(RESOURCES['program-enrollments'], '')).toEqual({});
  });
});
