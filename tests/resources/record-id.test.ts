/**
 * A record's id as the screens send it back: a kind with no id of its own (a course review, an enrolment) is
 * addressed by all of its key fields, as the engine's cache keeps it, so an edit or delete names the whole record
 * (the review screen sent the course alone, and the platform asked for the reviewer).
 */
import { describe, expect, it } from 'vitest';
import { compositeParts } from '../../src/main/engine/resources/api';
import { RESOURCES, recordIdOf, type ResourceDeclaration } from '../../src/shared/resources';

describe('recordIdOf', () => {
  it('joins every key field of a composite kind, and the engine takes it apart again', () => {
    const kinds = (Object.values(RESOURCES) as ResourceDeclaration[]).filter((declaration) => declaration.compositeId);
    expect(kinds.length).toBeGreaterThan(0);
    for (const declaration of kinds) {
      const record = Object.fromEntries(
        declaration.compositeId!.map((field: string, i: number) => [field, `value-${i}`]),
      );
      const id = recordIdOf(declaration, { ...record, [declaration.idField]: 'value-0' });
      expect(id.split(' @ ')).toHaveLength(declaration.compositeId!.length);
      expect(compositeParts(declaration, id)).toEqual(record);
    }
  });

  it("is the id field's value for a kind with an id of its own", () => {
    expect(recordIdOf(RESOURCES['api-tokens'], { [RESOURCES['api-tokens'].idField]: 42 })).toBe('42');
  });
});
