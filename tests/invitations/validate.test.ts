import { describe, expect, it } from 'vitest';
import { asciiEmail, emptyValues, validateRow, validateRows } from '../../src/main/engine/invitations/validate';

const row = (values: Partial<ReturnType<typeof emptyValues>>) => ({ ...emptyValues(), ...values });
const messages = (values: Partial<ReturnType<typeof emptyValues>>) =>
  (validateRow(row(values)).problems ?? []).map((p) => `${p.field}: ${p.message}`);

describe('email addresses', () => {
  it('accepts plain and international addresses, sending international domains in ASCII form', () => {
    expect(asciiEmail('ann.lee+cohort@example.org')).toBe('ann.lee+cohort@example.org');
    expect(asciiEmail('anna@bücher.de')).toBe('anna@xn--bcher-kva.de');
    expect(asciiEmail('taro@例え.jp')).toBe('taro@xn--r8jz45g.jp');
    expect(validateRow(row({ email: 'Anna@Bücher.DE' }))).toEqual({
      problems: null,
      emailKey: 'anna@xn--bcher-kva.de',
    });
  });

  it.each([
    ['ann@example', 'Not a valid email address'],
    ['ann example.org', 'it contains a space'],
    ['ann.example.org', 'no @'],
    ['josé@example.org', 'accents before the @'],
    ['ann@10.0.0.1', 'Not a valid email address'],
    ['ann..lee@example.org', 'Not a valid email address'],
    ['ann@-example.org', 'Not a valid email address'],
    [`${'a'.repeat(65)}@example.org`, 'Not a valid email address'],
  ])('refuses %j', (email, message) => {
    expect(messages({ email }).join()).toContain(message);
  });
});

describe('rows', () => {
  it('requires an email', () => {
    expect(messages({ first_name: 'Ann' })).toEqual(['email: Email is required']);
  });

  it('puts no limit the platform does not have on names, company or group (they are metadata)', () => {
    expect(
      messages({
        email: 'ann@example.org',
        first_name: 'x'.repeat(151),
        last_name: 'y'.repeat(400),
        company_name: 'z'.repeat(256),
        user_group: 'g'.repeat(300),
      }),
    ).toEqual([]);
    const long = `${'a'.repeat(60)}@${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.${'e'.repeat(10)}.org`;
    expect(messages({ email: long })).toEqual(['email: Email is longer than 254 characters']);
  });

  it('takes a user group without an owner, or with an owner that is not an address, as a valid row', () => {
    // `user_group_owner_email` is optional on the platform: a group without an owner is sent as it is.
    expect(messages({ email: 'ann@example.org', user_group: 'Cohort A' })).toEqual([]);
    expect(messages({ email: 'ann@example.org', user_group: 'Cohort A', user_group_owner_email: 'boss' })).toEqual([]);
    expect(messages({ email: 'ann@example.org', user_group_owner_email: 'boss@example.org' })).toEqual([]);
  });

  it('trims cells and keys addresses in lower case', () => {
    const values = row({ email: '  Ann@Example.ORG ', first_name: ' Ann ' });
    expect(validateRow(values)).toEqual({ problems: null, emailKey: 'ann@example.org' });
    expect(values.first_name).toBe('Ann');
  });

  it('leaves characters that could not be read outside the address to a notice for the file', () => {
    const unreadable = row({ email: 'ann@example.org', last_name: 'Ren\uFFFDe' });
    expect(validateRows([unreadable]).problems[0]).toBeNull();
    expect(messages({ email: 'ren\uFFFDe@example.org' })).toEqual([
      'email: Not a valid email address (letters with accents before the @ are not accepted)',
    ]);
  });

  it('validates a batch and reports each row by its index', () => {
    const result = validateRows([
      row({ email: 'a@example.org' }),
      row({ email: 'nope' }),
      row({ email: 'c@example.org' }),
    ]);
    expect(result.keys).toEqual(['a@example.org', null, 'c@example.org']);
    expect(result.problems.map((p) => p?.length ?? 0)).toEqual([0, 1, 0]);
  });
});
