import { describe, expect, it } from 'vitest';
import { personNaming } from '../../src/renderer/resources/person-name';

describe('personNaming', () => {
  it('names a person by the full name the directory knows, the username beside it', () => {
    expect(
      personNaming({ user_id: 7, username: 'ada', name: 'Ada Lovelace' }, { username: 'ada', user_id: 7 }),
    ).toEqual({ name: 'Ada Lovelace', username: 'ada' });
  });

  it('falls back to the username, then the email, then the number, never an empty name', () => {
    expect(personNaming(undefined, { username: 'ada', email: 'ada@example.edu' })).toEqual({
      name: 'ada',
      username: null,
    });
    expect(personNaming({ user_id: 7, name: '  ' }, { email: 'ada@example.edu' })).toEqual({
      name: 'ada@example.edu',
      username: null,
    });
    expect(personNaming(undefined, { user_id: 7 })).toEqual({ name: 'User 7', username: null });
    expect(personNaming(undefined, {})).toEqual({ name: 'Someone', username: null });
  });

  it('does not repeat a username that is also the name', () => {
    expect(personNaming({ name: 'ada', username: 'ada' }, { username: 'ada' })).toEqual({
      name: 'ada',
      username: null,
    });
  });
});
